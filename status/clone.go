package status

import (
	"bytes"
	"encoding/json"
	"maps"
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
// no writing. It says what reflect.DeepEqual says of them (a nil list or
// map is not an empty one), but that a time's zone must be the very same
// *time.Location: equal values in another form are not the same here, and
// the writer then compares their encodings. TestSameAsSeesEveryField
// changes every field by reflection, so a field added without its line
// here fails it.
func (s *Status) sameAs(prev *Status) bool {
	a, b := s, prev
	return a.Schema == b.Schema && a.Session == b.Session && a.PID == b.PID && a.PIDStart == b.PIDStart &&
		a.Host == b.Host && a.CWD == b.CWD && same(a.Terminal, b.Terminal) && same(a.TerminalFrom, b.TerminalFrom) &&
		sameList(a.Terminals, b.Terminals) && a.Agent == b.Agent && a.AgentDir == b.AgentDir &&
		same(a.SessionFile, b.SessionFile) && same(a.Model, b.Model) && same(a.Thinking, b.Thinking) &&
		a.State == b.State && same(a.StateSince, b.StateSince) && same(a.Attention, b.Attention) &&
		same(a.Context.Tokens, b.Context.Tokens) && same(a.Context.Window, b.Context.Window) &&
		same(a.Context.Percent, b.Context.Percent) && a.Usage.Input == b.Usage.Input && a.Usage.Output == b.Usage.Output &&
		a.Usage.CacheRead == b.Usage.CacheRead && a.Usage.CacheWrite == b.Usage.CacheWrite && same(a.Usage.Cost, b.Usage.Cost) &&
		sameBy(a.RateLimits, b.RateLimits, func(x, y *RateLimits) bool {
			return sameBy(x.FiveHour, y.FiveHour, (*RateLimit).sameAs) && sameBy(x.Weekly, y.Weekly, (*RateLimit).sameAs)
		}) &&
		a.Tools == b.Tools && sameMap(a.Switches.Tools, b.Switches.Tools) && sameMap(a.Switches.Skills, b.Switches.Skills) &&
		same(a.Ticket, b.Ticket) && sameBy(a.Workflow, b.Workflow, (*Workflow).sameAs) &&
		sameListBy(a.Outputs, b.Outputs, func(x, y Output) bool {
			return x.Path == y.Path && x.Action == y.Action && x.At == y.At && same(x.Repo, y.Repo)
		}) &&
		sameList(a.Recent, b.Recent) && sameBy(a.ContextDetail, b.ContextDetail, (*ContextDetail).sameAs) &&
		sameBy(a.LastRequest, b.LastRequest, (*Answer).sameAs) && a.StartedAt == b.StartedAt && a.UpdatedAt == b.UpdatedAt
}

func (r *RateLimit) sameAs(o *RateLimit) bool {
	return r.UsedPercent == o.UsedPercent && same(r.ResetsAt, o.ResetsAt)
}

func (w *Workflow) sameAs(o *Workflow) bool {
	return w.Name == o.Name && sameList(w.Stages, o.Stages) && w.Current == o.Current && w.Since == o.Since &&
		sameListBy(w.PRs, o.PRs, func(x, y json.RawMessage) bool { return (x == nil) == (y == nil) && bytes.Equal(x, y) }) &&
		w.Problem == o.Problem
}

func (d *ContextDetail) sameAs(o *ContextDetail) bool {
	return same(d.Window, o.Window) && d.Tokens == o.Tokens && sameList(d.Parts, o.Parts) && sameList(d.Tools, o.Tools) &&
		sameList(d.Skills, o.Skills) && sameList(d.Files, o.Files)
}

func (a *Answer) sameAs(o *Answer) bool {
	return a.ID == o.ID && a.OK == o.OK && a.Message == o.Message && a.At == o.At && same(a.Reload, o.Reload) &&
		sameList(a.Covers, o.Covers)
}

// same reports whether two pointers are both nil or point to equal values.
func same[T comparable](a, b *T) bool { return a == b || a != nil && b != nil && *a == *b }

// sameBy is same with eq saying whether the values are equal.
func sameBy[T any](a, b *T, eq func(x, y *T) bool) bool {
	return a == b || a != nil && b != nil && eq(a, b)
}

// sameList reports whether two lists hold equal values, a nil list not an
// empty one.
func sameList[T comparable](a, b []T) bool { return (a == nil) == (b == nil) && slices.Equal(a, b) }

func sameListBy[T any](a, b []T, eq func(x, y T) bool) bool {
	return (a == nil) == (b == nil) && slices.EqualFunc(a, b, eq)
}

// sameMap reports whether two maps hold the same entries, a nil map not an
// empty one.
func sameMap[K, V comparable](a, b map[K]V) bool { return (a == nil) == (b == nil) && maps.Equal(a, b) }
