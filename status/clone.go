package status

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
)

// Clone is a copy of s that shares nothing a writer may change with it:
// every pointer, list and map is its own; it was decoded from no document
// (Raw is nil). TestCloneSharesNothing fills every field by reflection, so a
// field added without its line here fails it.
func (s *Status) Clone() *Status {
	c := *s
	c.raw = nil
	c.Terminal, c.TerminalFrom, c.SessionFile, c.Thinking = clonePtr(s.Terminal), clonePtr(s.TerminalFrom), clonePtr(s.SessionFile), clonePtr(s.Thinking)
	c.Terminals = slices.Clone(s.Terminals)
	c.Model, c.StateSince, c.Attention = clonePtr(s.Model), clonePtr(s.StateSince), clonePtr(s.Attention)
	c.Context = Context{Tokens: clonePtr(s.Context.Tokens), Window: clonePtr(s.Context.Window), Percent: clonePtr(s.Context.Percent)}
	c.Usage.Cost = clonePtr(s.Usage.Cost)
	if r := s.RateLimits; r != nil {
		c.RateLimits = &RateLimits{FiveHour: r.FiveHour.clone(), Weekly: r.Weekly.clone()}
	}
	c.Switches = Switches{Tools: maps.Clone(s.Switches.Tools), Skills: maps.Clone(s.Switches.Skills)}
	c.Ticket = clonePtr(s.Ticket)
	if w := s.Workflow; w != nil {
		cw := *w
		cw.Stages = slices.Clone(w.Stages)
		cw.PRs = make([]json.RawMessage, len(w.PRs))
		for i, pr := range w.PRs {
			cw.PRs[i] = slices.Clone(pr)
		}
		if w.PRs == nil {
			cw.PRs = nil
		}
		c.Workflow = &cw
	}
	c.Outputs = slices.Clone(s.Outputs)
	for i := range c.Outputs {
		c.Outputs[i].Repo = clonePtr(s.Outputs[i].Repo)
	}
	c.Recent = slices.Clone(s.Recent)
	if d := s.ContextDetail; d != nil {
		c.ContextDetail = &ContextDetail{Window: clonePtr(d.Window), Tokens: d.Tokens, Parts: slices.Clone(d.Parts),
			Tools: slices.Clone(d.Tools), Skills: slices.Clone(d.Skills), Files: slices.Clone(d.Files)}
	}
	if a := s.LastRequest; a != nil {
		ca := *a
		ca.Reload, ca.Covers = clonePtr(a.Reload), slices.Clone(a.Covers)
		c.LastRequest = &ca
	}
	return &c
}

func (r *RateLimit) clone() *RateLimit {
	if r == nil {
		return nil
	}
	c := *r
	c.ResetsAt = clonePtr(r.ResetsAt)
	return &c
}

// clonePtr is a pointer to a copy of what p points to (nil for nil).
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// sameAs reports whether s holds what prev holds, field by field (the
// document each was read from aside): the file prev was read from needs
// no writing. Equal values in another form (a time in another zone) are
// not the same here; the writer then compares their encodings.
func (s *Status) sameAs(prev *Status) bool {
	a, b := *s, *prev
	a.raw, b.raw = nil, nil
	return reflect.DeepEqual(a, b)
}
