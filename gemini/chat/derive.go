package chat

import (
	"slices"

	"jig/status"
	"jig/transcript"
)

// Provider is the model provider a Gemini CLI session's model is named
// under.
const Provider = "google"

// Derive is what has been read in the status file's terms. repo names the
// git work tree holding a path (nil for none).
//
// Usage is the sum of every model message's latest counts: input without
// the cached tokens (the record's input is promptTokenCount, cached
// included) plus the tool-use prompt tokens, output the candidates and the
// thoughts (both are output the model produced), cacheRead the cached.
// Gemini CLI records no cache writes and no prices: cost is null. The
// context is the latest reply's input; the window is not recorded (null).
func (r *Reader) Derive(repo func(path string) *string) *transcript.Derived {
	st := &r.st
	d := &transcript.Derived{File: r.path, Entries: st.Entries, Skipped: st.Skipped,
		Header:  transcript.Header{ID: st.SessionID, Timestamp: st.Started},
		Outputs: []status.Output{}, Recent: []status.Call{}}
	t := st.Totals
	// a record with counts below zero (written by hand, or hostile) still
	// gives counts a status file takes
	d.Usage = status.Usage{Input: max(0, t.Input-t.Cached) + max(0, t.Tool), Output: max(0, t.Output) + max(0, t.Thoughts),
		CacheRead: max(0, t.Cached)}
	if st.Model != "" {
		d.Model = &status.Model{Provider: Provider, ID: st.Model, Name: st.Model}
	}
	if st.Context != nil && *st.Context >= 0 {
		tok := *st.Context
		d.ContextTokens = &tok
	}
	for i := len(st.Calls) - 1; i >= 0; i-- {
		c := st.Calls[i]
		d.Recent = append(d.Recent, status.Call{At: transcript.MsTime(c.At), Tool: c.Tool, Action: c.Action, Outcome: c.Outcome})
	}
	d.Outputs = transcript.WrittenOutputs(st.Outputs, repo)
	return d
}

// Totals are the record's own counts, summed over its model messages.
func (r *Reader) Totals() Tokens { return r.st.Totals }

// Called are the tools the model called so far, by the names it was
// offered them under, in the order first called.
func (r *Reader) Called() []string { return slices.Clone(r.st.Called) }

// SessionID is the session id the header (or a later $set) names.
func (r *Reader) SessionID() string { return r.st.SessionID }

// Pending is the tool of the newest call read that has not ended, "" when
// none.
func (r *Reader) Pending() string {
	for i := len(r.st.Calls) - 1; i >= 0; i-- {
		if c := r.st.Calls[i]; c.Outcome == status.Pending {
			return c.Tool
		}
	}
	return ""
}
