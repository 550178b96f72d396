package render

import (
	"bytes"
	"io"
	"strings"

	"github.com/rivo/uniseg"
)

// Widths are counted per grapheme cluster, the way a terminal draws text:
// 🚀, ⚡ and ✅ take two cells, 👍🏽 and a ZWJ family are one emoji of two
// cells, CJK takes two, and a combining mark stays with its letter and adds
// none. Every cut or pad of shown text goes through these functions.

// Width is the number of terminal cells s takes.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return uniseg.StringWidth(s)
		}
	}
	return len(s) // printable ASCII: a cell a byte, as uniseg counts it, without its tables
}

// Truncate cuts s to at most n cells, ending with "…" when it cut. It cuts
// between grapheme clusters: never inside an emoji sequence, never between
// a letter and its combining mark, never half a wide character.
func Truncate(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return head(s, n-1) + "…"
}

// TruncateLeft cuts s to at most n cells from its start, beginning with "…"
// when it cut: the end of a path, where its project is, stays.
func TruncateLeft(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	var clusters []string
	var widths []int
	state := -1
	for rest := s; rest != ""; {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		clusters, widths = append(clusters, cluster), append(widths, cw)
	}
	i, w := len(clusters), 0
	for i > 0 && w+widths[i-1] <= n-1 {
		i--
		w += widths[i]
	}
	return "…" + strings.Join(clusters[i:], "")
}

// ShortID is a session id cut to its first 8 characters, as git shortens a
// commit hash: enough to tell a machine's sessions apart at a glance.
func ShortID(id string) string {
	return head(id, 8)
}

// head is the first clusters of s that fit in n cells.
func head(s string, n int) string {
	var b strings.Builder
	w, state := 0, -1
	for rest := s; rest != ""; {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w+cw > n {
			break
		}
		b.WriteString(cluster)
		w += cw
	}
	return b.String()
}

// Pad is s followed by spaces up to n cells; s as it is when it is wider.
func Pad(s string, n int) string {
	if w := Width(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// TruncateStyled cuts rendered output to n cells without counting or
// breaking tmux #[…] styles and ANSI escape sequences, counting tmux's "##"
// as the one '#' it shows. When it cuts it ends with "…" and a reset of each kind of
// style it passed, so nothing leaks into the rest of the bar.
func TruncateStyled(s string, n int) string { return truncateStyled(s, n, nextToken) }

// TruncateANSI cuts a line of text and ANSI escape sequences (a
// full-screen view in colour) to n cells, as TruncateStyled does, taking
// '#' as the character it is.
func TruncateANSI(s string, n int) string {
	return truncateStyled(s, n, func(s string) (string, int, int) {
		if strings.HasPrefix(s, "#") {
			return s[:1], 1, tokenText
		}
		return nextToken(s)
	})
}

func truncateStyled(s string, n int, nextToken func(string) (string, int, int)) string {
	if widthBy(s, nextToken) <= n {
		return s
	}
	var b strings.Builder
	w := 0
	var tmux, ansi bool
	for rest := s; rest != ""; {
		tok, tw, kind := nextToken(rest)
		if w+tw > n-1 {
			break
		}
		b.WriteString(tok)
		w += tw
		tmux = tmux || kind == tokenTmuxStyle
		ansi = ansi || kind == tokenEscape
		rest = rest[len(tok):]
	}
	if n > 0 {
		b.WriteString("…")
	}
	if ansi {
		b.WriteString("\x1b[0m")
	}
	if tmux {
		b.WriteString("#[default]")
	}
	return b.String()
}

func styledWidth(s string) int { return widthBy(s, nextToken) }

// widthBy is the cells s takes, split into tokens by next.
func widthBy(s string, nextToken func(string) (string, int, int)) int {
	w := 0
	for s != "" {
		tok, tw, _ := nextToken(s)
		w += tw
		s = s[len(tok):]
	}
	return w
}

const (
	tokenText = iota
	tokenTmuxStyle
	tokenEscape
)

// nextToken splits the first shown grapheme cluster or style off s: its
// bytes, the cells it takes and its kind.
func nextToken(s string) (string, int, int) {
	switch {
	case strings.HasPrefix(s, "##"):
		return s[:2], 1, tokenText
	case strings.HasPrefix(s, "#["):
		if j := strings.IndexByte(s, ']'); j >= 0 {
			return s[:j+1], 0, tokenTmuxStyle
		}
		return s, 0, tokenTmuxStyle
	case strings.HasPrefix(s, "\x1b["):
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return s[:j+1], 0, tokenEscape
			}
		}
		return s, 0, tokenEscape
	}
	cluster, _, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	if cluster[0] < 0x20 || cluster[0] == 0x7f {
		return cluster, 0, tokenText
	}
	return cluster, w, tokenText
}

// Columns is a table writer like text/tabwriter (cells end with a tab, a
// line with a newline, columns two spaces apart), but it pads by terminal
// cells, so CJK and emoji line up. It writes on Flush.
type Columns struct {
	w      io.Writer
	buf    bytes.Buffer
	width  int // Fit's
	narrow []Narrowing
}

// A Narrowing is how one column gives up cells when the table is wider than
// its terminal: Cut gets each of the column's cells (the header too) and
// the cells the column should fit in, and returns the cell cut as far as
// the column allows, which may be wider.
type Narrowing struct {
	Column int // from 0; the last is the text after a line's last tab
	Cut    func(cell string, n int) string
}

// Fit makes Flush fit the lines in width cells (0: no limit): while they are
// wider, it narrows the columns in the order given, then cuts what is still
// too wide at the width. A line wider than its terminal would wrap and break
// the columns.
func (c *Columns) Fit(width int, narrow ...Narrowing) {
	c.width, c.narrow = width, narrow
}

// NewColumns writes aligned columns to w.
func NewColumns(w io.Writer) *Columns { return &Columns{w: w} }

func (c *Columns) Write(p []byte) (int, error) { return c.buf.Write(p) }

// Flush pads each tab-ended cell to its column's widest and writes the
// lines. Text after a line's last tab is not a cell and is not padded.
func (c *Columns) Flush() error {
	text := strings.TrimSuffix(c.buf.String(), "\n")
	c.buf.Reset()
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = strings.Split(l, "\t")
	}
	widths, wide := columnWidths(rows)
	for _, nw := range c.narrow {
		if c.width <= 0 || wide <= c.width {
			break
		}
		n := -1 // the column's widest cell
		for _, row := range rows {
			if nw.Column < len(row) {
				n = max(n, Width(row[nw.Column]))
			}
		}
		for _, row := range rows {
			if nw.Column < len(row) {
				row[nw.Column] = nw.Cut(row[nw.Column], n-(wide-c.width))
			}
		}
		widths, wide = columnWidths(rows)
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		last := len(row) - 1
		for j, cell := range row[:last] {
			line.WriteString(Pad(cell, widths[j]+2))
		}
		line.WriteString(row[last])
		if c.width > 0 { // a cell narrowed to nothing leaves its padding
			b.WriteString(Truncate(strings.TrimRight(line.String(), " "), c.width))
		} else {
			b.WriteString(line.String())
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(c.w, b.String())
	return err
}

// columnWidths are the widest cell of each tab-ended column and the widest
// line they make.
func columnWidths(rows [][]string) (widths []int, widest int) {
	for _, row := range rows {
		for j, cell := range row[:len(row)-1] {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], Width(cell))
		}
	}
	for _, row := range rows {
		w := Width(row[len(row)-1])
		for j := range row[:len(row)-1] {
			w += widths[j] + 2
		}
		widest = max(widest, w)
	}
	return widths, widest
}
