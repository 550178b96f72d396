package transcript

import (
	"slices"

	"jig/status"
	base "jig/transcript"
)

// Derive is what has been read in the status file's terms, in the Pi
// reader's shape. repo names the git work tree holding a path (nil for
// none). Fields a transcript cannot know (the context window, busy or idle)
// are left to the hooks and the statusLine.
//
// Usage is every request the session paid for, as Claude's own totals and
// cost count them: Claude's session totals at its latest cost-state entry
// (which Claude writes when a run ends), plus each reply read since, the
// session's and its subagents', once per message id. Before any cost-state
// it is the replies read. Cost is Claude Code's own figure, from the latest
// cost-state entry, and only while no reply came after it: the transcript
// has no prices, so a cost jig worked out itself could disagree with
// Claude's; nil means not known yet.
func (r *Reader) Derive(repo func(path string) *string) *base.Derived {
	st := r.state()
	d := &base.Derived{File: r.path, Entries: st.Entries, Skipped: st.Skipped, Thinking: st.Effort,
		Header:  base.Header{ID: st.SessionID, Timestamp: st.Started, CWD: st.CWD},
		Outputs: []status.Output{}, Recent: []status.Call{}}
	d.Usage = status.Usage{Input: st.Totals.Input, Output: st.Totals.Output, CacheRead: st.Totals.CacheRead, CacheWrite: st.Totals.CacheWrite}
	if st.Cost != nil && st.CostFresh {
		c := *st.Cost
		d.Usage.Cost = &c
	}
	if st.Model != "" {
		d.Model = &status.Model{Provider: Provider, ID: st.Model, Name: st.Model}
		if st.ModelName[0] == st.Model {
			d.Model.Name = st.ModelName[1] // the display name Claude gives it
		}
	}
	if st.Context != nil {
		tok := *st.Context
		d.ContextTokens = &tok
	}
	for i := len(st.Calls) - 1; i >= 0; i-- {
		c := st.Calls[i]
		d.Recent = append(d.Recent, status.Call{At: base.MsTime(c.At), Tool: c.Tool, Action: c.Action, Outcome: c.Outcome})
	}
	d.Outputs = base.WrittenOutputs(st.Outputs, repo)
	return d
}

// Tools are the tools the model was offered in the latest request the
// transcript records (its shape), and those it can load by ToolSearch.
func (r *Reader) Tools() (offered, deferred []string) {
	st := r.state()
	return slices.Clone(st.Offered), slices.Clone(st.Deferred)
}

// Skills are the skills the session lists to the model.
func (r *Reader) Skills() []string {
	return slices.Clone(r.state().Skills)
}

// Outcome is how a tool call read so far ended: pending while its result
// is not read, "" when the call itself is not.
func (r *Reader) Outcome(id string) string {
	if outcome, ok := r.lazy.PeekOutcome(id); ok {
		return outcome
	}
	st := r.state()
	return base.OutcomeOf(st.Calls, st.Pending, id)
}

// Settle records how a call ended as its after-tool hook says it: Claude
// writes the result into the transcript only after those hooks ran. A call
// read so far and still pending gets outcome; its result, once read, has
// the last word. It reports whether it changed a call.
func (r *Reader) Settle(id, outcome string) bool {
	return base.Settle(r.state().Calls, id, outcome)
}

// TurnEnded reports whether the latest entry read is a reply that ends
// the turn (not a tool call, not a prompt or a tool's result).
func (r *Reader) TurnEnded() bool {
	return r.state().TurnEnded
}

// SubagentEnded reports whether the subagent's transcript read so far
// (agent-<id>.jsonl) ends with a reply that ends its turn.
func (r *Reader) SubagentEnded(id string) bool {
	for _, f := range r.subs {
		if f.Name == "agent-"+id+".jsonl" {
			return f.Ended
		}
	}
	return false
}

// SessionID is the session id the entries carry.
func (r *Reader) SessionID() string {
	return r.state().SessionID
}
