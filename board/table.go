package board

import (
	"slices"
	"strings"
	"time"

	"jig/render"
)

// column is one column of the board. Columns with a higher drop go first
// when the rows must fit a width; project shrinks before any goes.
type column struct {
	title string
	drop  int
	cell  func(r Row, now time.Time) string
}

// columns in display order. The glyph, the project, the time in this
// state and the host never go (the host is left out only when every row is
// local); the last tool and the branch show only where there is room.
var columns = []column{
	{"", 0, func(r Row, _ time.Time) string { return glyph(r) }},
	{"PROJECT", 0, func(r Row, _ time.Time) string { return r.Project }},
	{"STATE", 0, func(r Row, _ time.Time) string { return stateWord(r) }},
	{"FOR", 0, func(r Row, now time.Time) string {
		if r.Err != "" {
			return ""
		}
		return render.Duration(now.Sub(r.Since))
	}},
	{"AGENT", 5, func(r Row, _ time.Time) string { return r.Agent }},
	{"MODEL", 3, func(r Row, _ time.Time) string { return r.Model }},
	{"CTX", 2, func(r Row, _ time.Time) string { return optional(r, render.Percent(r.Context)) }},
	{"COST", 4, func(r Row, _ time.Time) string { return optional(r, render.Money(r.Cost)) }},
	{"5H", 6, func(r Row, _ time.Time) string {
		if r.RateLimit == nil {
			return ""
		}
		return render.Percent(r.RateLimit)
	}},
	{"TOOL", 7, func(r Row, _ time.Time) string { return r.LastTool }},
	{"BRANCH", 8, func(r Row, _ time.Time) string { return r.Branch }},
	{"HOST", 0, func(r Row, _ time.Time) string { return r.Host }},
}

// maxDrop is the highest drop a column has.
const maxDrop = 8

func optional(r Row, s string) string {
	if r.Err != "" {
		return ""
	}
	return s
}

// glyph is the row's state in one cell: ◐ waits for the person, ● busy,
// ○ idle, × a host that gave no rows.
func glyph(r Row) string {
	switch {
	case r.Err != "":
		return "×"
	case r.Attention != "":
		return render.GlyphAttention
	}
	return render.Glyph(r.State)
}

// stateWord says the state, and what waits when something does.
func stateWord(r Row) string {
	switch {
	case r.Err != "":
		return "down: " + r.Err
	case r.Attention == "permission" && r.Tool != "":
		return "asks: " + r.Tool
	case r.Attention != "":
		return r.Attention
	}
	return r.State
}

// Lines is the board as lines at most width cells wide (0: no limit): a
// header, then one line a row. Every string is cleaned; the least useful
// columns go first when the rows do not fit, then the project shrinks.
func Lines(rows []Row, width int, now time.Time) []string {
	cells := make([][]string, len(rows)+1)
	show := make([]bool, len(columns))
	widths := make([]int, len(columns))
	allLocal := true
	for _, r := range rows {
		allLocal = allLocal && r.Local
	}
	for i, c := range columns {
		show[i] = !(c.title == "HOST" && allLocal)
		widths[i] = render.Width(c.title)
	}
	cells[0] = make([]string, len(columns))
	for i, c := range columns {
		cells[0][i] = c.title
	}
	for n, r := range rows {
		cells[n+1] = make([]string, len(columns))
		for i, c := range columns {
			v := render.Clean(c.cell(r, now))
			cells[n+1][i] = v
			widths[i] = max(widths[i], render.Width(v))
		}
	}
	for i, c := range columns { // a column nobody fills is not shown
		if c.title != "" && c.drop > 0 && widths[i] == render.Width(c.title) && !anyCell(cells[1:], i) {
			show[i] = false
		}
	}
	fitColumns(show, widths, width, stateWidth(cells[1:], rows))
	out := make([]string, len(cells))
	for n, row := range cells {
		var b strings.Builder
		for i, v := range row {
			if !show[i] {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("  ")
			}
			b.WriteString(render.Pad(render.Truncate(v, widths[i]), widths[i]))
		}
		line := strings.TrimRight(b.String(), " ")
		if width > 0 {
			line = render.Truncate(line, width)
		}
		out[n] = line
	}
	return out
}

func anyCell(rows [][]string, i int) bool {
	for _, r := range rows {
		if r[i] != "" {
			return true
		}
	}
	return false
}

// stateWidth is the width of the state column without a down host's
// reason, which is cut before any column goes.
func stateWidth(cells [][]string, rows []Row) int {
	i := slices.IndexFunc(columns, func(c column) bool { return c.title == "STATE" })
	w := max(render.Width(columns[i].title), render.Width("down: ")+12)
	for n, r := range rows {
		if r.Err == "" {
			w = max(w, render.Width(cells[n][i]))
		}
	}
	return w
}

// fitColumns fits the shown columns in width: it cuts a down host's reason
// to the width of the other states, hides columns, highest drop first,
// then narrows the project and state columns.
func fitColumns(show []bool, widths []int, width, states int) {
	if width <= 0 {
		return
	}
	total := func() int {
		n, w := 0, 0
		for i, on := range show {
			if on {
				w += widths[i]
				n++
			}
		}
		return w + 2*max(n-1, 0)
	}
	for i, c := range columns {
		if c.title == "STATE" && total() > width {
			widths[i] = max(min(widths[i], states), widths[i]-(total()-width))
		}
	}
	for drop := maxDrop; drop > 0 && total() > width; drop-- {
		for i, c := range columns {
			if c.drop == drop {
				show[i] = false
			}
		}
	}
	for _, name := range []string{"PROJECT", "STATE"} {
		for i, c := range columns {
			if c.title == name && total() > width {
				widths[i] = max(widths[i]-(total()-width), 8)
			}
		}
	}
}
