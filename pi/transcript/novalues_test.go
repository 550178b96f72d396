package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/engine"
	"jig/status"
)

// TestNoValues: Pi tool calls whose arguments, results and messages carry a
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
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	s, err := engine.Build(nil, &d.Derived, nil)
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
