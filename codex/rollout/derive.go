package rollout

import (
	"slices"

	"jig/status"
	"jig/transcript"
)

// Derive is what has been read in the status file's terms, in the Pi
// reader's shape. repo names the git work tree holding a path (nil for
// none). The context window is not a Derived field: Window says it.
//
// Usage is Codex's own session total (total_token_usage): input without
// the cached and cache-write tokens, which are cacheRead and cacheWrite.
// Cost is never worked out: the rollout has no prices.
func (r *Reader) Derive(repo func(path string) *string) *transcript.Derived {
	st := &r.st
	d := &transcript.Derived{File: r.path, Entries: st.Entries, Skipped: st.Skipped, Thinking: st.Effort,
		Header:  transcript.Header{ID: st.SessionID, Timestamp: st.Started, CWD: st.CWD},
		Outputs: []status.Output{}, Recent: []status.Call{}}
	if t := st.Totals; t != nil {
		d.Usage = status.Usage{Input: max(0, t.Input-t.Cached-t.CacheWrite), Output: t.Output, CacheRead: t.Cached, CacheWrite: t.CacheWrite}
	}
	if st.Model != "" {
		d.Model = &status.Model{Provider: st.Provider, ID: st.Model, Name: st.Model}
	}
	if st.Context != nil {
		tok := *st.Context
		d.ContextTokens = &tok
	}
	for i := len(st.Calls) - 1; i >= 0; i-- {
		c := st.Calls[i]
		d.Recent = append(d.Recent, status.Call{At: transcript.MsTime(c.At), Tool: c.Tool, Action: c.Action, Outcome: c.Outcome})
		d.RecentIDs = append(d.RecentIDs, c.ID)
	}
	d.Outputs = transcript.WrittenOutputs(st.Outputs, repo)
	return d
}

// Window is the model's context window as Codex counts it
// (model_context_window), nil before Codex said it.
func (r *Reader) Window() *int64 {
	if r.st.Window == nil {
		return nil
	}
	w := *r.st.Window
	return &w
}

// Called are the tools the model called so far, by the names it was
// offered them under, in the order first called.
func (r *Reader) Called() []string { return slices.Clone(r.st.Called) }

// Outcome is how a call read so far ended: pending while its end is not
// read, "" when the call itself is not.
func (r *Reader) Outcome(id string) string { return transcript.OutcomeOf(r.st.Calls, nil, id) }

// Replied reports whether the latest reply read has its response's counts
// after it: at a Stop, the turn's last token count is in.
func (r *Reader) Replied() bool { return r.st.Replied }

// Provider is the model provider the session uses (session_meta's
// model_provider: Codex's name for it, "openai" or one of config.toml's).
func (r *Reader) Provider() string { return r.st.Provider }

// SessionID is the session id the rollout's session_meta names.
func (r *Reader) SessionID() string { return r.st.SessionID }
