package render

import (
	"fmt"
	"strings"

	"jig/status"
)

// The context drawing: a 10×10 grid where each cell is 1% of the window (or
// of what is used when the window is unknown), one glyph per part, the parts
// listed beside it, then the tools by source, the skills and the context
// files. herdr/app/context/view.js draws the same lines for Herdr.app; both
// are checked against herdr/app/testdata/context_full.txt, so all arithmetic
// here is on integers, which JavaScript repeats exactly.

// GridSide is the grid's rows and columns; GridSide² cells make 100%.
const GridSide = 10

// PartGlyphs mark the parts in order; FreeGlyph marks the free cells.
var PartGlyphs = []string{"█", "▓", "▒", "░", "▞", "▚", "■", "▪", "◆", "◇"}

const FreeGlyph = "·"

// ContextLines draws a session's context detail, its names cleaned of
// control characters so a status file cannot drive the terminal.
func ContextLines(d *status.ContextDetail) []string {
	if d == nil {
		return []string{"no context detail yet: the session reports it after its first turn"}
	}
	parts := d.Parts
	if len(parts) == 0 && d.Tokens > 0 {
		parts = []status.ContextPart{{Name: "used", Tokens: d.Tokens}}
	}
	var sum int64
	for _, p := range parts {
		sum += max(p.Tokens, 0)
	}
	base := max(sum, d.Tokens)
	if d.Window != nil && *d.Window >= base && *d.Window > 0 {
		base = *d.Window
	}

	var l []string
	if d.Window != nil && *d.Window > 0 {
		l = append(l, fmt.Sprintf("context %s / %s tokens (%s)", Tokens(d.Tokens), Tokens(*d.Window), Tenths(d.Tokens, *d.Window)))
	} else {
		l = append(l, fmt.Sprintf("context %s tokens (window unknown)", Tokens(d.Tokens)))
	}

	cells := gridCells(parts, sum, base)
	var legend []string
	for i, p := range parts {
		legend = append(legend, fmt.Sprintf("%s %s %6s %6s", glyph(i), Pad(Clean(p.Name), 12), Tokens(p.Tokens), Tenths(p.Tokens, base)))
	}
	if base > sum {
		legend = append(legend, fmt.Sprintf("%s %s %6s %6s", FreeGlyph, Pad("free", 12), Tokens(base-sum), Tenths(base-sum, base)))
	}
	rows := max(GridSide, len(legend))
	for r := range rows {
		row := strings.Repeat(" ", 2*GridSide-1)
		if r < GridSide {
			row = strings.Join(cells[r*GridSide:(r+1)*GridSide], " ")
		}
		if r < len(legend) {
			row += "   " + legend[r]
		}
		l = append(l, row)
	}

	if len(d.Tools) > 0 {
		l = append(l, "", "tools")
		l = append(l, toolLines(d.Tools)...)
	}
	if len(d.Skills) > 0 {
		l = append(l, "", "skills")
		for _, it := range d.Skills {
			l = append(l, itemLine("  ", it))
		}
	}
	if len(d.Files) > 0 {
		l = append(l, "", "files")
		for _, it := range d.Files {
			l = append(l, itemLine("  ", it))
		}
	}
	for i := range l {
		l[i] = Clean(l[i])
	}
	return l
}

// gridCells gives each part its share of used cells by largest remainder
// (ties to the earlier part), and the rest of the grid to free space.
func gridCells(parts []status.ContextPart, sum, base int64) []string {
	total := int64(GridSide * GridSide)
	var used int64
	if base > 0 {
		used = min((sum*total+base/2)/base, total)
	}
	share := make([]int64, len(parts))
	rem := make([]int64, len(parts))
	var given int64
	for i, p := range parts {
		if sum > 0 && p.Tokens > 0 {
			share[i] = p.Tokens * used / sum
			rem[i] = p.Tokens * used % sum
		}
		given += share[i]
	}
	for ; given < used; given++ {
		best := -1
		for i := range parts {
			if parts[i].Tokens > 0 && (best < 0 || rem[i] > rem[best]) {
				best = i
			}
		}
		share[best]++
		rem[best] = -1
	}
	cells := make([]string, 0, total)
	for i := range parts {
		for range share[i] {
			cells = append(cells, glyph(i))
		}
	}
	for int64(len(cells)) < total {
		cells = append(cells, FreeGlyph)
	}
	return cells
}

// toolLines lists tools grouped by source, in the order sources appear.
func toolLines(tools []status.ContextItem) []string {
	var order []string
	bySource := map[string][]status.ContextItem{}
	for _, t := range tools {
		src := t.Source
		if src == "" {
			src = "other"
		}
		if _, ok := bySource[src]; !ok {
			order = append(order, src)
		}
		bySource[src] = append(bySource[src], t)
	}
	var l []string
	for _, src := range order {
		var sum int64
		for _, t := range bySource[src] {
			sum += t.Tokens
		}
		l = append(l, fmt.Sprintf("  %s %6s", Pad(Clean(src), 22), Tokens(sum)))
		for _, t := range bySource[src] {
			t.Source = ""
			l = append(l, itemLine("    ", t))
		}
	}
	return l
}

func itemLine(indent string, it status.ContextItem) string {
	line := fmt.Sprintf("%s%s %6s", indent, Pad(Clean(it.Name), 24-len(indent)), Tokens(it.Tokens))
	if it.Source != "" {
		line += "  " + it.Source
	}
	if it.Off {
		line += "  (off)"
	}
	if it.Inactive {
		line += "  (inactive)"
	}
	return line
}

func glyph(i int) string { return PartGlyphs[i%len(PartGlyphs)] }

// Tokens is a short token count: 950, 3.1k, 104k, 1.2M.
func Tokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 9950:
		t := (n + 50) / 100
		return fmt.Sprintf("%d.%dk", t/10, t%10)
	case n < 999_500:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	t := (n + 50_000) / 100_000
	return fmt.Sprintf("%d.%dM", t/10, t%10)
}

// Tenths is part/whole as a percentage with one decimal, rounded half up.
func Tenths(part, whole int64) string {
	if whole <= 0 {
		return "?"
	}
	t := (part*1000 + whole/2) / whole
	return fmt.Sprintf("%d.%d%%", t/10, t%10)
}
