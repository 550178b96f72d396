package bridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// ticketWorld is a configuration, a ticket folder and a git work tree on
// a branch naming the ticket, as the Jig plugins leave them.
func ticketWorld(t *testing.T, b *Bridge) (project, folder string) {
	t.Helper()
	root := t.TempDir()
	project, folder = filepath.Join(root, "project"), filepath.Join(root, "memory", "SHOP-142")
	files := map[string]string{
		"config.json":                     `{"memory":{"dir":"memory"},"workflow":{"dir":"flows"},"jira":{"site":"https://acme.example"}}`,
		"flows/feature.json":              `{"stages":["plan","build","review"]}`,
		"memory/SHOP-142/ticket.json":     `{"title":"Fix the checkout"}`,
		"memory/SHOP-142/workflow.json":   `{"name":"feature","current":"build"}`,
		"memory/SHOP-142/notes.md":        "notes",
		"memory/SHOP-142/history/old.md":  "old",
		"memory/SHOP-142/evidence/tool-1": "auto",
		"project/.git/HEAD":               "ref: refs/heads/feature/SHOP-142-fix\n",
	}
	for p, c := range files {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	getenv := b.Getenv
	b.Getenv = func(k string) string {
		if k == "JIG_CONFIG" {
			return filepath.Join(root, "config.json")
		}
		return getenv(k)
	}
	return project, folder
}

func TestTicketFromTheBranchAndItsFolder(t *testing.T) {
	b, _ := newTestBridge(t)
	project, folder := ticketWorld(t, b)
	now := t0
	b.Now = func() time.Time { return now }
	handle(t, b, hello("s1"), `{"type":"live","live":{"cwd":"`+project+`"}}`)
	s := read(t, b, "s1")
	if s.Ticket == nil || *s.Ticket != (status.Ticket{Key: "SHOP-142", Title: "Fix the checkout", URL: "https://acme.example/browse/SHOP-142", From: "branch"}) {
		t.Errorf("ticket %+v", s.Ticket)
	}
	if w := s.Workflow; w == nil || w.Name != "feature" || strings.Join(w.Stages, ",") != "plan,build,review" || w.Current != "build" {
		t.Errorf("workflow %+v", s.Workflow)
	}
	if len(s.Outputs) != 1 || s.Outputs[0].Path != filepath.Join(folder, "notes.md") || s.Outputs[0].Action != status.Changed {
		t.Errorf("outputs %+v, want notes.md only", s.Outputs)
	}

	// A note written by hand: not before TicketEvery, then at the poll, with no event.
	plan := filepath.Join(folder, "plan.md")
	os.WriteFile(plan, []byte("plan"), 0o600)
	now = now.Add(TicketEvery - time.Second)
	b.RefreshTicket()
	if s := read(t, b, "s1"); len(s.Outputs) != 1 {
		t.Errorf("re-read before %v: %+v", TicketEvery, s.Outputs)
	}
	now = now.Add(time.Second)
	if err := b.RefreshTicket(); err != nil {
		t.Fatal(err)
	}
	if s := read(t, b, "s1"); len(s.Outputs) != 2 || s.Outputs[0].Path != plan && s.Outputs[1].Path != plan {
		t.Errorf("after %v: outputs %+v, want plan.md too", TicketEvery, s.Outputs)
	}

	// Another extension's jig:ticket wins at once; an empty key takes it back.
	handle(t, b, `{"type":"ticket","ticket":{"key":"OPS-9"}}`)
	if s := read(t, b, "s1"); s.Ticket == nil || s.Ticket.Key != "OPS-9" || s.Workflow != nil {
		t.Errorf("after jig:ticket: %+v %+v", s.Ticket, s.Workflow)
	}
	handle(t, b, `{"type":"ticket","ticket":{"key":""}}`)
	if s := read(t, b, "s1"); s.Ticket == nil || s.Ticket.Key != "SHOP-142" {
		t.Errorf("after the word was taken back: %+v", s.Ticket)
	}
}

func TestTicketProblemsAreToldOnce(t *testing.T) {
	b, out := newTestBridge(t)
	project, _ := ticketWorld(t, b)
	os.WriteFile(b.Getenv("JIG_CONFIG"), []byte(`{"memory":`), 0o600)
	now := t0
	b.Now = func() time.Time { return now }
	handle(t, b, hello("s1"), `{"type":"live","live":{"cwd":"`+project+`"}}`)
	for range 3 {
		now = now.Add(TicketEvery)
		b.RefreshTicket()
	}
	if n := strings.Count(out.String(), "config.json: not JSON"); n != 1 {
		t.Errorf("the garbled configuration was told %d times, want once:\n%s", n, out)
	}
	if s := read(t, b, "s1"); s.Ticket == nil || s.Ticket.Key != "SHOP-142" || s.Ticket.URL != "" || s.Workflow != nil {
		t.Errorf("with a garbled configuration: %+v %+v, want the key only", s.Ticket, s.Workflow)
	}
}

// Decisions go to the call of the same id, even when the live calls and
// the transcript's do not line up (a call Pi never wrote down).
func TestDecisionsMatchByCallID(t *testing.T) {
	b, _ := newTestBridge(t)
	file := filepath.Join(t.TempDir(), "s1.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}},{"type":"toolCall","id":"c2","name":"bash","arguments":{}}],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1795980001000}}`,
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	handle(t, b, `{"type":"hello","session":"s1","pid":`+itoa(os.Getpid())+`,"sessionFile":"`+file+`"}`,
		`{"type":"decision","decision":{"id":"c1","decision":"allow","answer":"one"}}`,
		`{"type":"decision","decision":{"id":"c2","decision":"deny","answer":"two"}}`,
		`{"type":"decision","decision":{"id":"c9","decision":"allow","answer":"nine"}}`)
	s := read(t, b, "s1")
	if len(s.Recent) != 2 || s.Recent[0].Answer != "two" || s.Recent[0].Decision != "deny" || s.Recent[1].Answer != "one" {
		t.Errorf("recent %+v, want c2 denied (two), c1 allowed (one)", s.Recent)
	}
}
