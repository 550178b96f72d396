// Package panel is the Work view: one session's state as lines of text,
// and the full-screen loop that shows a view in a terminal (Run: raw keys,
// resizes, redraws in place). The lines are pure (a status and a clock in,
// lines out) so `jig panel`, demos and tests share them. herdr/app/src/work-view.js draws the same lines for
// Herdr.app; both are checked against herdr/app/testdata/work_full.txt and
// work_hostile.txt, so every number here is formatted with integer
// arithmetic that JavaScript repeats exactly, and cleaned by one rule.
package panel

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"jig/render"
	"jig/status"
)

// recentHeading labels the column of jig-core's decision on each call
// (allow, deny, ask, or -), over it: the lines below put a mark, an age of 4
// cells and a tool of 16 before it.
const recentHeading = "recent calls              decision"

// Caps keep the view about one screen high.
const (
	MaxOutputs = 12
	MaxRecent  = 8
	BarCells   = 20
)

// Lines is the Work view of s at time now, each line cleaned (render.Clean):
// the agent writes much of it, and it goes to terminals and Herdr.app.
func Lines(s *status.Status, now time.Time) []string {
	var l []string
	add := func(format string, args ...any) { l = append(l, fmt.Sprintf(format, args...)) }

	head := s.Session
	if len(head) > 8 {
		head = head[:8]
	}
	if s.Terminal != nil && *s.Terminal != "" {
		head = *s.Terminal + " · " + head
	}
	add("%s · updated %s ago", head, Age(now, s.UpdatedAt))

	model := render.ModelName(s.Model)
	line := s.State + " · " + model
	if s.Thinking != nil && *s.Thinking != "" {
		line += " · thinking " + *s.Thinking
	}
	add("%s", line)
	if a := s.Attention; a != nil {
		add("%s %s · for %s", render.GlyphAttention, render.Waits(a), Age(now, a.Since))
	}

	add("context %s %s  %s / %s", Bar(s.Context.Percent), render.Percent(s.Context.Percent),
		TokensOrUnknown(s.Context.Tokens), TokensOrUnknown(s.Context.Window))

	line = "cost " + render.Money(s.Usage.Cost) + fmt.Sprintf(" · tools %d/%d", s.Tools.Active, s.Tools.Total)
	if off := offSwitches(s.Switches); len(off) > 0 {
		line += " · off: " + strings.Join(off, ", ")
	}
	add("%s", line)
	if line := rateLimitsLine(s.RateLimits, now); line != "" {
		add("%s", line)
	}

	if t := s.Ticket; t != nil {
		line = "ticket " + t.Key
		if t.Title != "" {
			line += " " + t.Title
		}
		add("%s", line)
	}
	if w := s.Workflow; w != nil {
		line = "stage " + w.Current
		for i, st := range w.Stages {
			if st == w.Current {
				line += fmt.Sprintf(" (%d/%d)", i+1, len(w.Stages))
				break
			}
		}
		line += " · " + w.Name
		if t, err := time.Parse(time.RFC3339, w.Since); err == nil {
			line += " · for " + Age(now, t)
		}
		if w.Problem != "" {
			line += " · problem: " + w.Problem
		}
		add("%s", line)
	}

	l = append(l, "")
	add("outputs (%d)", len(s.Outputs))
	l = append(l, outputLines(s, now)...)

	l = append(l, "")
	if len(s.Recent) == 0 {
		add("recent calls")
		add("  none yet")
	} else {
		add("%s", recentHeading)
	}
	for i, c := range s.Recent {
		if i == MaxRecent {
			add("  … %d more", len(s.Recent)-MaxRecent)
			break
		}
		name := c.Tool
		if c.Action != "" && c.Action != c.Tool { // "read read" says nothing twice
			name += " " + c.Action
		}
		decision := c.Decision
		if decision == "" {
			decision = "-"
		}
		line = fmt.Sprintf("  %s %s %s %s %s", outcomeMark(c.Outcome), render.Pad(Age(now, c.At), 4), render.Pad(render.Clean(name), 16), render.Pad(render.Clean(decision), 6), c.Outcome)
		if c.Answer != "" {
			line += " · " + c.Answer
		}
		add("%s", strings.TrimRight(line, " "))
	}

	if r := s.LastRequest; r != nil {
		l = append(l, "")
		verdict := "failed"
		if r.OK {
			verdict = "ok"
		}
		add("last request %s · %s ago", verdict, Age(now, r.At))
		add("  %s", r.Message)
	}
	for i := range l {
		l[i] = render.Clean(l[i])
	}
	return l
}

// rateLimitsLine is "limits 5h 42% (resets in 1h) · 7d 18%": each window
// the agent reports, "" for none.
func rateLimitsLine(r *status.RateLimits, now time.Time) string {
	var parts []string
	for _, w := range render.RateWindows(r) {
		part := w.Label + " " + render.Percent(&w.UsedPercent)
		if w.ResetsAt != nil {
			part += " (resets in " + render.Until(now, *w.ResetsAt) + ")"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	return "limits " + strings.Join(parts, " · ")
}

// outputLines lists the outputs newest first, grouped by repo in the order
// each repo first appears; a path under the session's cwd is shown relative.
func outputLines(s *status.Status, now time.Time) []string {
	shown := s.Outputs
	if len(shown) > MaxOutputs {
		shown = shown[:MaxOutputs]
	}
	var order []string
	groups := map[string][]status.Output{}
	for _, o := range shown {
		key := ""
		if o.Repo != nil {
			key = *o.Repo
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], o)
	}
	var l []string
	if len(shown) == 0 {
		l = append(l, "  none yet")
	}
	for _, key := range order {
		label := "other files"
		if key != "" {
			label = baseName(key)
		}
		l = append(l, "  "+label)
		for _, o := range groups[key] {
			l = append(l, fmt.Sprintf("    %s %s · %s", render.Pad(render.Clean(o.Action), 7), RelPath(s.CWD, o.Path), Age(now, o.At)))
		}
	}
	if n := len(s.Outputs) - len(shown); n > 0 {
		l = append(l, fmt.Sprintf("  … %d more", n))
	}
	return l
}

func offSwitches(sw status.Switches) []string {
	var off []string
	for name, on := range sw.Tools {
		if !on {
			off = append(off, name)
		}
	}
	for name, on := range sw.Skills {
		if !on {
			off = append(off, name)
		}
	}
	sort.Strings(off)
	return off
}

func outcomeMark(outcome string) string {
	switch outcome {
	case status.OK:
		return "✓"
	case status.Error:
		return "✗"
	}
	return "…"
}

// RelPath shows p relative to cwd when it lies under it.
func RelPath(cwd, p string) string {
	if cwd != "" && strings.HasPrefix(p, strings.TrimSuffix(cwd, "/")+"/") {
		return p[len(strings.TrimSuffix(cwd, "/"))+1:]
	}
	return p
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Bar is a context meter of BarCells cells, one per 5%.
func Bar(p *float64) string {
	filled := 0
	if p != nil {
		filled = int(render.RoundHalfUp(*p * BarCells / 100))
	}
	filled = max(0, min(BarCells, filled))
	return strings.Repeat("█", filled) + strings.Repeat("░", BarCells-filled)
}

// TokensOrUnknown is Tokens, "?" when unknown.
func TokensOrUnknown(n *int64) string {
	if n == nil {
		return "?"
	}
	return render.Tokens(*n)
}

// Age is how long ago t was: 5s, 3m, 2h, 4d; 0s for the future.
func Age(now, t time.Time) string { return render.Duration(now.Sub(t)) }

// NoSession is the quiet line shown for a terminal without a session.
func NoSession(terminal string) []string {
	return []string{"no jig session in terminal " + terminal, "waiting for one…"}
}

// Fit cuts a line to width terminal cells (0: no limit), marking a cut with
// "…". It counts cells, not runes: a CJK character or an emoji takes two,
// and a line that overflowed would wrap and scroll the panel's screen.
func Fit(line string, width int) string {
	if width <= 0 {
		return line
	}
	return render.TruncateANSI(line, width)
}
