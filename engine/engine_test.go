package engine

import (
	"testing"
	"time"

	"jig/status"
	"jig/transcript"
)

func ptr[T any](v T) *T { return &v }

func at(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }

func TestPrecedence(t *testing.T) {
	prev := &status.Status{Schema: 1, Session: "s", PID: 7, State: status.Busy,
		Model:   &status.Model{Provider: "anthropic", ID: "claude-a", Name: "Claude A"},
		Context: status.Context{Tokens: ptr(int64(10)), Window: ptr(int64(1000)), Percent: ptr(1.0)},
		Outputs: []status.Output{
			{Path: "/w/kept.md", Action: status.Created, At: at("2026-01-01T00:00:00Z")},
			{Path: "/w/a.go", Action: status.Changed, At: at("2026-01-01T00:00:00Z")},
		},
		Recent: []status.Call{{At: at("2026-01-01T00:00:05Z"), Tool: "bash", Action: "run", Decision: "allow", Outcome: status.OK}},
	}
	d := &transcript.Derived{Entries: 3, Header: transcript.Header{CWD: "/w"},
		Model:    &status.Model{Provider: "anthropic", ID: "claude-a", Name: "claude-a"},
		Thinking: "high", ContextTokens: ptr(int64(500)),
		Usage: status.Usage{Input: 5, Output: 6, Cost: ptr(0.25)},
		Outputs: []status.Output{
			{Path: "/w/a.go", Action: status.Created, At: at("2026-01-02T00:00:00Z")}, // first touch in the transcript
			{Path: "/w/b.go", Action: status.Created, At: at("2026-01-01T12:00:00Z")},
		},
		Recent: []status.Call{
			{At: at("2026-01-01T00:00:06Z"), Tool: "edit", Action: "edit", Outcome: status.Pending},
			{At: at("2026-01-01T00:00:05Z"), Tool: "bash", Action: "run", Outcome: status.OK},
		},
	}
	s, err := Build(prev, d, []byte(`{"thinking":"low","outputs":[{"path":"/w/b.go","action":"changed","at":"2026-01-01T00:00:00Z","repo":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if *s.Thinking != "low" {
		t.Errorf("thinking %s: live wins", *s.Thinking)
	}
	if s.Model.Name != "Claude A" {
		t.Errorf("model name %q: the live display name stays for the same model", s.Model.Name)
	}
	if s.State != status.Busy || s.PID != 7 {
		t.Errorf("state %s pid %d: what only prev knows stays", s.State, s.PID)
	}
	if *s.Context.Tokens != 500 || *s.Context.Window != 1000 || s.Context.Percent != nil {
		t.Errorf("context %v/%v/%v: tokens from the transcript, window kept, percent to recompute",
			*s.Context.Tokens, *s.Context.Window, s.Context.Percent)
	}
	s.Normalize()
	if *s.Context.Percent != 50 {
		t.Errorf("percent %v, want 50", *s.Context.Percent)
	}
	got := map[string]status.Output{}
	for _, o := range s.Outputs {
		got[o.Path] = o
	}
	if got["/w/a.go"].Action != status.Changed || !got["/w/a.go"].At.Equal(at("2026-01-02T00:00:00Z")) {
		t.Errorf("a.go %+v: prev's verdict stays, the newest time wins", got["/w/a.go"])
	}
	if got["/w/b.go"].Action != status.Changed {
		t.Errorf("b.go %+v: live's verdict wins", got["/w/b.go"])
	}
	if _, ok := got["/w/kept.md"]; !ok || len(s.Outputs) != 3 {
		t.Errorf("outputs %+v: live-only outputs stay", s.Outputs)
	}
	if s.Outputs[0].Path != "/w/a.go" {
		t.Errorf("outputs not newest first: %+v", s.Outputs)
	}
	if len(s.Recent) != 2 || s.Recent[1].Decision != "allow" || s.Recent[0].Tool != "edit" {
		t.Errorf("recent %+v: the transcript's calls, keeping live decisions", s.Recent)
	}
	if *s.Usage.Cost != 0.25 || s.Usage.Input != 5 {
		t.Errorf("usage %+v", s.Usage)
	}
}

func TestBuildWithoutTranscript(t *testing.T) {
	prev := &status.Status{Schema: 1, Context: status.Context{Percent: ptr(12.5)}}
	s, err := Build(prev, nil, []byte(`{"state":"busy"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Context.Percent == nil || *s.Context.Percent != 12.5 || s.State != "busy" {
		t.Errorf("%+v: a live update alone keeps the rest", s)
	}
	if _, err := Build(nil, nil, []byte(`{"state":`)); err == nil {
		t.Error("bad live JSON accepted")
	}
	if _, err := Build(nil, nil, []byte(`[1]`)); err == nil {
		t.Error("a live list accepted")
	}
}
