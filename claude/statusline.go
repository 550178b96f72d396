package claude

import (
	cct "jig/claude/transcript"
	"jig/status"
)

// StatusLine records what only the statusLine's JSON carries (the model's
// display name, the context window, Claude's own total cost, the rate
// limits) into the
// session's file, takes a waiting request (Claude runs the command every
// refreshInterval seconds, idle or not), and returns the status to render.
func (w *Writer) StatusLine(in *Input) (*status.Status, error) {
	live := map[string]any{}
	if m := in.Model; m != nil && m.ID != "" {
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		live["model"] = map[string]any{"provider": "anthropic", "id": m.ID, "name": name}
	}
	if c := in.Cost; c != nil && c.TotalCostUSD != nil {
		live["usage"] = map[string]any{"cost": *c.TotalCostUSD}
	}
	cw := in.ContextWindow
	if cw != nil && cw.Size != nil && *cw.Size > 0 {
		live["context"] = map[string]any{"window": *cw.Size}
	}
	return w.hooks().Write(w.agent(in, live, func(s, _ *status.Status, r *cct.Reader) {
		if in.RateLimits != nil {
			s.RateLimits = in.RateLimits.Status()
		}
		if s.Model != nil && s.Context.Window != nil {
			w.keepWindow(in.SessionID, s.Model.ID, *s.Context.Window)
		}
		if r == nil && s.Context.Tokens == nil && cw != nil && cw.CurrentUsage != nil {
			// no transcript to read yet: Claude's own count of the context
			// (once there is one, the transcript's: after a compaction,
			// the postTokens Claude recorded)
			u := cw.CurrentUsage
			if tok := u.Input + u.CacheRead + u.CacheWrite; tok > 0 {
				s.Context.Tokens = &tok
			}
		}
	}), in.event())
}
