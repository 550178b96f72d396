package render

import (
	"strings"
	"testing"
	"time"

	"jig/status"
)

var t0 = time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)

func workStatus() *status.Status {
	repo := "/src/shop"
	return &status.Status{
		Session: "s1", State: status.Busy, CWD: repo, UpdatedAt: t0.Add(-5 * time.Second),
		Model:    &status.Model{Provider: "anthropic", ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5"},
		Thinking: ptr("high"),
		Context:  status.Context{Percent: ptr(42.4)},
		Usage:    status.Usage{Cost: ptr(0.37)},
		Ticket:   &status.Ticket{Key: "SHOP-142", Title: "Refunds"},
		Workflow: &status.Workflow{Name: "feature", Stages: []string{"plan", "build"}, Current: "build"},
		Outputs: []status.Output{
			{Path: "/src/shop/a.go", Action: status.Changed, At: t0.Add(-time.Minute), Repo: &repo},
			{Path: "/elsewhere/notes.md", Action: status.Created, At: t0.Add(-2 * time.Hour)},
		},
		Recent: []status.Call{
			{At: t0, Tool: "bash", Action: "go", Decision: "ask", Answer: "allow once", Outcome: status.Pending},
			{At: t0.Add(-3 * time.Second), Tool: "read", Outcome: status.Error},
		},
	}
}

func TestWork(t *testing.T) {
	var b strings.Builder
	Work(&b, workStatus(), t0)
	want := `busy  Claude Sonnet 4.5 · high  ctx 42%  $0.37  (s1, updated 5s ago)
ticket    SHOP-142  Refunds
workflow  feature   build of plan → build
files     changed   a.go                        1m ago
          created   /elsewhere/notes.md         2h ago
recent    bash go   ask → allow once · pending  0s ago
          read      error                       3s ago
`
	if b.String() != want {
		t.Errorf("Work =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWorkCutsLongLists(t *testing.T) {
	s := &status.Status{Session: "s", State: status.Idle, UpdatedAt: t0}
	for range 8 {
		s.Outputs = append(s.Outputs, status.Output{Path: "/p", Action: status.Changed, At: t0})
		s.Recent = append(s.Recent, status.Call{Tool: "read", Outcome: status.OK, At: t0})
	}
	var b strings.Builder
	Work(&b, s, t0)
	if n := strings.Count(b.String(), "read"); n != workRows {
		t.Errorf("%d recent rows, want %d", n, workRows)
	}
	if !strings.Contains(b.String(), "3 more") {
		t.Errorf("no count of the outputs left out:\n%s", b.String())
	}
}

func TestSummaryAndTableClean(t *testing.T) {
	s := workStatus()
	s.Session = "evil\x1b]0;pwned\x07"
	s.CWD = "/tmp/\x1b[2J"
	var b strings.Builder
	Summary(&b, s, t0)
	Table(&b, []*status.Status{s}, func(*status.Status) bool { return false }, t0)
	Work(&b, s, t0)
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("control characters reached the terminal: %q", b.String())
	}
	if !strings.Contains(b.String(), "evil?]0;pwned?") || !strings.Contains(b.String(), " gone ") {
		t.Errorf("output:\n%s", b.String())
	}
}

func TestStatusLineFormat(t *testing.T) {
	var b strings.Builder
	if err := Template(&b, StatusLineFormat, workStatus(), t0); err != nil {
		t.Fatal(err)
	}
	if want := "busy · claude-sonnet-4-5 · ctx 42% · $0.37"; b.String() != want {
		t.Errorf("status line %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := Template(&b, StatusLineFormat, &status.Status{State: status.Idle}, t0); err != nil {
		t.Fatal(err)
	}
	if want := "idle ·  · ctx ? · ?"; b.String() != want {
		t.Errorf("empty status line %q, want %q", b.String(), want)
	}
}

func TestExecuteAllOrNothing(t *testing.T) {
	tpl, err := Parse("start {{index .Outputs 9}} end")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Execute(&b, tpl, workStatus(), t0); err == nil || b.Len() != 0 {
		t.Errorf("failed render wrote %q (err %v)", b.String(), err)
	}
}
