package render

import (
	"time"

	"jig/status"
)

// GlyphAttention marks a session that waits for the person: a call to
// approve, a question to answer, a run stopped on an error.
const GlyphAttention = "◐"

// StateGlyph is the session's glyph: ◐ while it waits for the person,
// else ● busy or ○ idle.
func StateGlyph(s *status.Status) string {
	if s.Attention != nil {
		return GlyphAttention
	}
	return Glyph(s.State)
}

// Waits says in a few words what a session waits for: "bash waits for
// approval", "a question waits for an answer", "stopped on an error"; ""
// when it waits for nothing. The tool is a name (the status refuses any
// other), cleaned all the same: it reaches terminals and notifications.
func Waits(a *status.Attention) string {
	if a == nil {
		return ""
	}
	return waits(a.Kind, a.Tool)
}

func waits(kind, tool string) string {
	switch kind {
	case status.AttentionPermission:
		if tool == "" {
			return "a tool call waits for approval"
		}
		return Clean(tool) + " waits for approval"
	case status.AttentionQuestion:
		return "a question waits for an answer"
	case status.AttentionError:
		return "stopped on an error"
	}
	return "waits for you"
}

// attentionWord is the attention's part of a status-line segment: the
// waiting tool's name, else the kind.
func attentionWord(a *status.Attention) string {
	if a.Kind == status.AttentionPermission && a.Tool != "" {
		return Clean(a.Tool)
	}
	return Clean(a.Kind)
}

// RateWindow is one rate-limit window with its label as the segment and
// the panel show it: 5h for the five-hour window, 7d for the weekly one.
type RateWindow struct {
	Label string
	*status.RateLimit
}

// RateWindows are the windows a status reports, five-hour first.
func RateWindows(r *status.RateLimits) []RateWindow {
	if r == nil {
		return nil
	}
	var ws []RateWindow
	if r.FiveHour != nil {
		ws = append(ws, RateWindow{"5h", r.FiveHour})
	}
	if r.Weekly != nil {
		ws = append(ws, RateWindow{"7d", r.Weekly})
	}
	return ws
}

// Text is the window as the segment shows it: "5h 42%".
func (w RateWindow) Text() string {
	return w.Label + " " + Percent(&w.UsedPercent)
}

// Until is how long until t, as Duration says it: "in 2h" is Until 2h.
func Until(now, t time.Time) string { return Duration(t.Sub(now)) }
