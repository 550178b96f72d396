// Package engine builds a session's status from three sources, in order of
// precedence: what the live agent says, what its transcript says, and the
// previous status file. The writer (package writer) calls it for every
// agent's adapter. It does no I/O.
//
// A bridge keeps one transcript.Reader per session in memory and, on each
// event:
//
//	err := reader.Update()                       // reads only the appended bytes
//	derived := reader.Derive(repos.Repo)         // repos := transcript.NewRepoFinder()
//	s, err := engine.Build(prev, derived, live)  // live: the event's fields as JSON
//	s.Session, s.PID = id, pid                   // then status.Dir.Write(s, now)
//
// The one-shot writer does the same with a Reader restored from the cursor
// it saved last time (transcript.RestoreReader / Reader.MarshalCursor).
package engine

import (
	"bytes"
	"encoding/json"
	"errors"

	"jig/status"
	"jig/transcript"
)

// Build lays the transcript's fields over prev, then the live fields over
// that. prev and derived may be nil; live may be empty. Live-only knowledge
// in prev is kept: an output's action (created or changed) once said stays
// unless live says otherwise, and a recent call keeps its decision and
// answer. The result still needs its session id, pid and what the
// environment knows.
func Build(prev *status.Status, derived *transcript.Derived, live []byte) (*status.Status, error) {
	s := &status.Status{}
	if prev != nil {
		cp := *prev
		s = &cp
	}
	if derived != nil {
		applyTranscript(s, derived)
	}
	beforeLive := *s
	out, err := layLive(s, live)
	if err != nil {
		return nil, err
	}
	said, err := liveKeys(live)
	if err != nil {
		return nil, err
	}
	if said.outputs {
		// live outputs join the others path by path; live's action wins
		out.Outputs = MergeOutputs(out.Outputs, beforeLive.Outputs)
	}
	if !said.percent {
		out.Context.Percent = nil // recomputed from tokens and window
		if derived == nil && !said.tokens && !said.window {
			out.Context.Percent = beforeLive.Context.Percent
		}
	}
	if out.Schema == 0 {
		out.Schema = status.Schema
	}
	return out, nil
}

// layLive is s with live laid over it (status.Merge), as a status of its
// own: a copy when live says only what s says already (a hook of an event
// that changes nothing: no encode, merge and decode).
func layLive(s *status.Status, live []byte) (*status.Status, error) {
	if status.Restates(s, live) {
		return s.Clone(), nil
	}
	base, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	merged, err := status.Merge(base, live)
	if err != nil {
		return nil, err
	}
	return status.Decode(merged)
}

// applyTranscript sets what the transcript knows over prev.
func applyTranscript(s *status.Status, d *transcript.Derived) {
	if s.CWD == "" {
		s.CWD = d.Header.CWD
	}
	if d.Model != nil {
		m := *d.Model
		if s.Model != nil && s.Model.Provider == m.Provider && s.Model.ID == m.ID && s.Model.Name != "" {
			m.Name = s.Model.Name // the live agent's display name
		}
		s.Model = &m
	}
	if d.Entries > 0 {
		t := d.Thinking
		s.Thinking = &t
	}
	s.Usage = d.Usage
	if d.Usage.Cost != nil {
		c := *d.Usage.Cost
		s.Usage.Cost = &c
	}
	s.Context.Tokens = d.ContextTokens
	s.Outputs = MergeOutputs(s.Outputs, d.Outputs)
	s.Recent = keepDecisions(d.Recent, s.Recent)
}

// MergeOutputs joins two output lists, one entry per path, newest first:
// first's action and repo win, the newest `at` wins.
func MergeOutputs(first, second []status.Output) []status.Output {
	byPath := map[string]int{}
	var out []status.Output
	for _, list := range [][]status.Output{first, second} {
		for _, o := range list {
			i, ok := byPath[o.Path]
			if !ok {
				byPath[o.Path] = len(out)
				out = append(out, o)
				continue
			}
			if o.At.After(out[i].At) {
				out[i].At = o.At
			}
			if out[i].Repo == nil {
				out[i].Repo = o.Repo
			}
		}
	}
	sortOutputs(out)
	return status.LimitOutputs(out)
}

func sortOutputs(o []status.Output) {
	// insertion sort: the lists are short and mostly sorted
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && newer(o[j], o[j-1]); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

func newer(a, b status.Output) bool {
	if !a.At.Equal(b.At) {
		return a.At.After(b.At)
	}
	return a.Path < b.Path
}

// keepDecisions gives the transcript's calls the decision and answer the
// live agent recorded for the same call (same time and tool).
func keepDecisions(calls, prev []status.Call) []status.Call {
	out := append([]status.Call(nil), calls...)
	for i := range out {
		for _, p := range prev {
			if p.Tool == out[i].Tool && p.At.Equal(out[i].At) {
				out[i].Decision, out[i].Answer = p.Decision, p.Answer
				break
			}
		}
	}
	return out
}

type said struct{ outputs, tokens, window, percent bool }

// liveKeys reports which fields the live JSON names.
func liveKeys(live []byte) (said, error) {
	var s said
	if len(bytes.TrimSpace(live)) == 0 {
		return s, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(live, &top); err != nil {
		return s, errors.New("not a JSON object")
	}
	_, s.outputs = top["outputs"]
	if raw, ok := top["context"]; ok {
		var ctx map[string]json.RawMessage
		if json.Unmarshal(raw, &ctx) == nil {
			_, s.tokens = ctx["tokens"]
			_, s.window = ctx["window"]
			_, s.percent = ctx["percent"]
		} else {
			s.percent = true // context replaced whole (null): keep what it says
		}
	}
	return s, nil
}
