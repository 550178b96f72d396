package transcript

import (
	"errors"
	"slices"

	"jig/status"
	pi "jig/transcript"
)

// Provider is what Qwen Code's models are reported under: the transcript
// names the model, not who serves it (DashScope, OpenRouter, a local
// server all speak the same Chat Completions).
const Provider = "qwen-code"

// Derive is what has been read in the status file's terms. repo names the
// git work tree holding a path (nil for none).
//
// Usage is the sum of every reply's usageMetadata: input without the
// cached tokens, which are cacheRead; output is the completion tokens
// (reasoning included). Requests that leave no reply in the transcript (a
// title, a compression) are not in it. Cost is null: Qwen Code records no
// prices, and jig does not guess them. The context is the latest reply's
// prompt tokens (unknown after a compression until the next reply); the
// window, the reply's contextWindowSize when Qwen records one, else what
// the Stop hook says.
func (r *Reader) Derive(repo func(path string) *string) *pi.Derived {
	st := r.state()
	d := &pi.Derived{File: r.path, Entries: st.Entries, Skipped: st.Skipped,
		Header:  pi.Header{ID: st.SessionID, Timestamp: st.Started, CWD: st.CWD},
		Outputs: []status.Output{}, Recent: []status.Call{}}
	d.Usage = status.Usage{Input: st.Totals.Input, Output: st.Totals.Output, CacheRead: st.Totals.CacheRead}
	if st.Model != "" {
		d.Model = &status.Model{Provider: Provider, ID: st.Model, Name: st.Model}
	}
	if st.Context != nil {
		tok := *st.Context
		d.ContextTokens = &tok
	}
	for i := len(st.Calls) - 1; i >= 0; i-- {
		c := st.Calls[i]
		d.Recent = append(d.Recent, status.Call{At: pi.MsTime(c.At), Tool: c.Tool, Action: c.Action, Outcome: c.Outcome})
		d.RecentIDs = append(d.RecentIDs, c.ID)
	}
	d.Outputs = pi.WrittenOutputs(st.Outputs, repo)
	return d
}

// Window is the context window the latest reply recorded, nil when none did.
func (r *Reader) Window() *int64 {
	st := r.state()
	if st.Window == nil {
		return nil
	}
	w := *st.Window
	return &w
}

// Called are the tools the model called, by the names it was offered them
// under.
func (r *Reader) Called() []string { return slices.Clone(r.state().Called) }

// Outcome is how a tool call read so far ended: pending while its result
// is not read, "" when the call itself is not.
func (r *Reader) Outcome(id string) string {
	if outcome, ok := r.lazy.PeekOutcome(id); ok {
		return outcome
	}
	st := r.state()
	return pi.OutcomeOf(st.Calls, st.Pending, id)
}

// Settle records how a call ended as its after-tool hook says it: Qwen
// writes the result into the transcript only after those hooks ran. A
// pending call gets outcome; it reports whether it changed a call.
func (r *Reader) Settle(id, outcome string) bool {
	return pi.Settle(r.state().Calls, id, outcome)
}

// TurnEnded reports whether the latest record read is a reply that calls
// no tool.
func (r *Reader) TurnEnded() bool { return r.state().TurnEnded }

// SessionID is the session id the records carry.
func (r *Reader) SessionID() string { return r.state().SessionID }

// Info is what `jig qwen sessions` lists, read from a transcript's head.
type Info = pi.Listed

// headWindow is how much of a transcript ReadInfo reads: its first
// records name the session, its folder and its start.
const headWindow = 64 << 10

var errHeadRead = errors.New("head read") // ReadInfo has what it wants

// ReadInfo reads a transcript's head, its first records as a Reader reads
// them, never the whole file; nil for a file that names no session.
func ReadInfo(path string) (*Info, error) {
	f, size, _, _, err := pi.OpenFollowed(path) // a fifo must not block a listing
	if errors.Is(err, status.ErrNotRegular) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r := NewReader(path)
	_, _, err = pi.Lines(f, 0, min(size, headWindow), nil, headWindow, func(b []byte, _ int64) error {
		r.line(b)
		if r.st.SessionID != "" && r.st.Started != "" && r.st.CWD != "" {
			return errHeadRead
		}
		return nil
	}, func(int64) {})
	if err != nil && err != errHeadRead {
		return nil, err
	}
	if r.st.SessionID == "" {
		return nil, nil
	}
	return &Info{ID: r.st.SessionID, Started: r.st.Started, CWD: r.st.CWD, Modified: fi.ModTime().UTC(), Size: fi.Size(), File: path}, nil
}
