// Package render turns a status into what people see: the short human
// summary on a terminal, Go text/template output for --format, and the
// status-line presets. It never writes an error into its output; callers
// print nothing when rendering fails.
package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"text/template"
	"time"

	"jig/status"
)

// Funcs are the helpers a --format template may call.
func Funcs(now time.Time) template.FuncMap {
	return template.FuncMap{
		"percent": Percent,
		"money":   Money,
		"since": func(t time.Time) string {
			return Duration(now.Sub(t))
		},
		"short": ShortModel,
		// The status-line helpers (render/preset.go).
		"glyph": Glyph,
		"level": Level,
		"trunc": func(n int, s string) string { return Truncate(s, n) },
		"tmux":  TmuxEscape,
		"clean": Clean,
		"width": Width,
	}
}

// Template renders text as a Go text/template over s.
func Template(w io.Writer, text string, s *status.Status, now time.Time) error {
	t, err := Parse(text)
	if err != nil {
		return err
	}
	return Execute(w, t, s, now)
}

// Parse reads a --format template. The helpers' clock is bound at Execute.
func Parse(text string) (*template.Template, error) {
	return template.New("format").Funcs(Funcs(time.Time{})).Option("missingkey=zero").Parse(text)
}

// Execute renders t over s into w, all or nothing: on an error w gets no
// byte, so a status line never shows half a line or an error.
func Execute(w io.Writer, t *template.Template, s *status.Status, now time.Time) error {
	var b strings.Builder
	if err := template.Must(t.Clone()).Funcs(Funcs(now)).Execute(&b, s); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Percent formats a context percentage, "?" when unknown.
func Percent(p *float64) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", *p)
}

// Money formats a cost in dollars, "?" when unknown.
func Money(c *float64) string {
	if c == nil {
		return "?"
	}
	if *c < 10 {
		return fmt.Sprintf("$%.2f", *c)
	}
	return fmt.Sprintf("$%.0f", *c)
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

// Table is the sessions as aligned columns for a terminal, one line each.
// live says which to mark as gone (nil: all are live).
func Table(w io.Writer, list []*status.Status, live func(*status.Status) bool, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tSTATE\tTERMINAL\tMODEL\tCTX\tCOST\tUPDATED\tCWD")
	for _, s := range list {
		state := s.State
		if live != nil && !live(s) {
			state = "gone"
		}
		term := "-"
		if s.Terminal != nil {
			term = *s.Terminal
		}
		model := ShortModel(s.Model)
		if model == "" {
			model = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s ago\t%s\n",
			Clean(s.Session), Clean(state), Clean(term), Clean(model), Percent(s.Context.Percent),
			Money(s.Usage.Cost), Duration(now.Sub(s.UpdatedAt)), Clean(s.CWD))
	}
	tw.Flush()
}

// Clean makes a value from a status file safe to print on a terminal:
// control characters (an escape sequence hidden in a session id or a path)
// become '?'.
func Clean(v string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, v)
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
