// Package render turns a status into what people see: the short human
// summary on a terminal, Go text/template output for --format and the
// output of --jq (render/jq compiles it; both over the status file's
// JSON), and the status-line presets. It never writes an error into its
// output; callers print nothing when rendering fails.
package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"jig/status"
)

// RoundHalfUp is the one rounding of the numbers every view shows: a half
// goes up, as JavaScript's Math.round does for positive numbers, so the
// status lines, the board, the panel, Herdr and Herdr.app's mods print the
// same digits (85 k of 200 k tokens is 43 % in all of them).
func RoundHalfUp(x float64) int64 { return int64(math.Floor(x + 0.5)) }

// Percent formats a percentage (a context's, a rate limit's) as a whole
// number, "?" when unknown: every view's formatter.
func Percent(p *float64) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprintf("%d%%", RoundHalfUp(*p))
}

// Money formats a cost in dollars and cents, "?" when unknown: every
// view's formatter.
func Money(c *float64) string {
	if c == nil {
		return "?"
	}
	cents := RoundHalfUp(*c * 100)
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}

// Duration is a short age such as 5s, 3m, 2h, 4d; 0s for a time ahead of
// the clock (another machine's, or a skewed one).
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// ShortModel is a model's name for a narrow bar: the id without its
// provider and date suffix.
func ShortModel(m *status.Model) string {
	if m == nil {
		return ""
	}
	id := m.ID
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	return trimDate(id)
}

// ModelName is a model's display name, else its id; "no model" when none.
func ModelName(m *status.Model) string {
	switch {
	case m == nil:
		return "no model"
	case m.Name != "":
		return m.Name
	}
	return m.ID
}

// Summary is the short human text for a terminal: one session, a few lines.
func Summary(w io.Writer, s *status.Status, now time.Time) {
	model := ModelName(s.Model)
	thinking := ""
	if s.Thinking != nil && *s.Thinking != "off" {
		thinking = " · " + *s.Thinking
	}
	fmt.Fprintf(w, "%s  %s%s  ctx %s  %s  (%s, updated %s ago)\n",
		Clean(s.State), Clean(model), Clean(thinking), Percent(s.Context.Percent), Money(s.Usage.Cost),
		Clean(s.Session), Duration(now.Sub(s.UpdatedAt)))
}

// Table is the sessions as aligned columns for a terminal, one line each,
// fitted in width cells (0: no limit): the state's glyph (◐ waits for you),
// the id as short as tells them apart, the agent, and what waits. live says
// which to mark as gone (nil: all are live).
func Table(w io.Writer, list []*status.Status, live func(*status.Status) bool, now time.Time, width int) {
	tw := NewColumns(w)
	tw.Fit(width, tableNarrowing...)
	fmt.Fprintln(tw, " \tSESSION\tAGENT\tSTATE\tTERMINAL\tMODEL\tCTX\tCOST\tUPDATED\tCWD")
	ids := make([]string, len(list))
	for i, s := range list {
		ids[i] = s.Session
	}
	short := ShortIDs(ids)
	for i, s := range list {
		glyph, state := StateGlyph(s), s.State
		if s.Attention != nil {
			state = "asks: " + attentionWord(s.Attention)
			if s.Attention.Kind != status.AttentionPermission {
				state = attentionWord(s.Attention)
			}
		}
		if live != nil && !live(s) {
			glyph, state = "×", "gone"
		}
		term, model, agent := "-", cmp.Or(ShortModel(s.Model), "-"), cmp.Or(s.Agent, "-")
		if s.Terminal != nil {
			term = *s.Terminal
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s ago\t%s\n",
			glyph, Clean(short[i]), Clean(agent), Clean(state), Clean(term), Clean(model), Percent(s.Context.Percent),
			Money(s.Usage.Cost), Duration(now.Sub(s.UpdatedAt)), Clean(s.CWD))
	}
	tw.Flush()
}

// ShortIDs are the ids each cut to its first 8 characters, as git shortens
// a hash, or to as many more as tell it from the others.
func ShortIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		n := 8
		for j, other := range ids {
			for j != i && other != id && n < len(id) && strings.HasPrefix(other, head(id, n)) {
				n++
			}
		}
		out[i] = head(id, n)
	}
	return out
}

// tableNarrowing is what a narrow terminal takes from Table first: the
// start of the cwd (its end, the project, stays).
var tableNarrowing = []Narrowing{
	{Column: 9, Cut: TruncateLeft},
}

// Clean makes a value from a status file or a transcript safe to print on
// a terminal. An agent chooses much of that text (a path it writes, a
// session name), so it must not reach the terminal as commands:
//
//   - control characters (C0, DEL, C1, the line and paragraph separators)
//     become '?', so an escape sequence (OSC 52 writing the clipboard, OSC 0
//     retitling, CSI 2J clearing) shows as inert text with its payload;
//   - Unicode format characters are dropped: the bidi controls that reorder
//     what is shown, and the invisible ones that hide or smuggle text (zero
//     width space, word joiner, BOM, tag characters). The two joiners stay:
//     emoji sequences and Persian or Indic spelling need them;
//   - bytes that are not UTF-8 become U+FFFD (a lone 0x9b is CSI to an
//     8-bit terminal).
//
// The Herdr.app mods carry the same rule in JS (herdr/app/src/shared.js
// clean); render/testdata/clean_cases.json and clean_rule.txt hold both to it.
func Clean(v string) string {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f {
			return strings.Map(cleanRune, v)
		}
	}
	return v // printable ASCII, as most text is: nothing to clean, no call a rune
}

// cleanRune is Clean for one rune: itself, '?', or -1 to drop it.
func cleanRune(r rune) rune {
	switch {
	case r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x2028 || r == 0x2029:
		return '?'
	case isFormat(r):
		return -1
	}
	return r
}

// formatRanges are Unicode 15.0's format characters (category Cf) but the
// zero width non-joiner and joiner (U+200C, U+200D), each range inclusive.
var formatRanges = [][2]rune{
	{0x00ad, 0x00ad}, {0x0600, 0x0605}, {0x061c, 0x061c}, {0x06dd, 0x06dd},
	{0x070f, 0x070f}, {0x0890, 0x0891}, {0x08e2, 0x08e2}, {0x180e, 0x180e},
	{0x200b, 0x200b}, {0x200e, 0x200f}, {0x202a, 0x202e}, {0x2060, 0x2064},
	{0x2066, 0x206f}, {0xfeff, 0xfeff}, {0xfff9, 0xfffb}, {0x110bd, 0x110bd},
	{0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
	{0xe0001, 0xe0001}, {0xe0020, 0xe007f},
}

func isFormat(r rune) bool {
	if r < 0xad {
		return false
	}
	for _, fr := range formatRanges {
		if r < fr[0] {
			return false
		}
		if r <= fr[1] {
			return true
		}
	}
	return false
}

// trimDate drops a "-20250929"-style release date from a model id.
func trimDate(id string) string {
	i := strings.LastIndexByte(id, '-')
	if i < 0 || len(id)-i-1 != 8 {
		return id
	}
	for _, c := range id[i+1:] {
		if c < '0' || c > '9' {
			return id
		}
	}
	return id[:i]
}
