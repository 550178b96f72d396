package engine

import (
	"os"
	"path/filepath"
	"strings"
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

// TestNoValues: tool calls whose arguments, results and messages carry a
// secret never put it in a status file; only tool and action names and
// the paths of written files get there.
func TestNoValues(t *testing.T) {
	const secret = "SEKRET-7f3a"
	lines := []string{
		`{"type":"session","version":3,"id":"s-secret","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"use ` + secret + `"}}`,
		`{"type":"message","id":"2","parentId":"1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[` +
			`{"type":"thinking","thinking":"` + secret + `"},{"type":"text","text":"` + secret + `"},` +
			`{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"curl -H 'Authorization: ` + secret + `'","timeout":5}},` +
			`{"type":"toolCall","id":"c2","name":"write","arguments":{"path":"notes.md","content":"` + secret + `"}},` +
			`{"type":"toolCall","id":"c3","name":"edit","arguments":{"path":"a.go","oldText":"` + secret + `","newText":"` + secret + `"}},` +
			`{"type":"toolCall","id":"c4","name":"edit","arguments":{"path":"b.go","edits":[{"oldText":"` + secret + `","newText":"x"}]}},` +
			`{"type":"toolCall","id":"c5","name":"grep","arguments":{"pattern":"` + secret + `","path":"/w"}},` +
			`{"type":"tool_use","id":"c6","name":"mcp_fetch","input":{"url":"https://x/?k=` + secret + `"}},` +
			`{"type":"toolCall","id":"c7","name":"call ` + secret + ` now","arguments":{}},` +
			`{"type":"toolCall","id":"c8","name":"read","arguments":{"path":"c.go","offset":1}}` +
			`],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}},"stopReason":"toolUse"}}`,
	}
	for i, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7"} {
		lines = append(lines, `{"type":"message","id":"r`+id+`","parentId":"`+map[bool]string{true: "2", false: "r" + []string{"", "c1", "c2", "c3", "c4", "c5", "c6"}[i]}[i == 0]+
			`","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"`+id+`","toolName":"x","content":[{"type":"text","text":"`+secret+`"}],"details":{"diff":"`+secret+`"},"isError":false}}`)
	}
	lines = append(lines, `{"type":"message","id":"bx","parentId":"rc7","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"bashExecution","command":"echo `+secret+`","output":"`+secret+`","exitCode":0}}`)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	r := transcript.NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	s, err := Build(nil, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Session, s.PID = "s-secret", 1
	s.Normalize()
	data, err := status.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) {
		t.Fatalf("the secret reached the status file:\n%s", data)
	}
	cursor, _ := r.MarshalCursor()
	if strings.Contains(string(cursor), secret) {
		t.Fatalf("the secret reached the cursor:\n%s", cursor)
	}
	if len(s.Recent) != 8 || len(s.Outputs) != 3 {
		t.Fatalf("recent %d outputs %d: the calls are there, names only\n%s", len(s.Recent), len(s.Outputs), data)
	}
	for _, want := range []string{`"tool": "unknown"`, `"tool": "mcp_fetch"`, `"/w/notes.md"`, `"action": "read-part"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("status lacks %s", want)
		}
	}
}
