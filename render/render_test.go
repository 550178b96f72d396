package render

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"jig/status"
)

var t0 = time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)

func fullStatus() *status.Status {
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

func TestSummaryAndTableClean(t *testing.T) {
	s := fullStatus()
	s.Session = "evil\x1b]0;pwned\x07"
	s.CWD = "/tmp/\x1b[2J"
	var b strings.Builder
	Summary(&b, s, t0)
	Table(&b, []*status.Status{s}, func(*status.Status) bool { return false }, t0, 0)
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("control characters reached the terminal: %q", b.String())
	}
	if !strings.Contains(b.String(), "evil?]0;pwned?") || !strings.Contains(b.String(), " gone ") {
		t.Errorf("output:\n%s", b.String())
	}
}

func TestExecuteAllOrNothing(t *testing.T) {
	for _, text := range []string{"start {{index .outputs 9}} end", "start {{.state.id}} end", "start {{percent .state}} end"} {
		tpl, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := Execute(&b, tpl, encode(t, fullStatus()), t0); err == nil || b.Len() != 0 {
			t.Errorf("%s: failed render wrote %q (err %v)", text, b.String(), err)
		}
	}
}

func encode(t *testing.T, s *status.Status) []byte {
	t.Helper()
	data, err := status.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestModelName(t *testing.T) {
	for _, c := range []struct {
		m    *status.Model
		want string
	}{
		{nil, "no model"},
		{&status.Model{Provider: "scripted", ID: "mock-model"}, "mock-model"},
		{&status.Model{Provider: "scripted", ID: "mock-model", Name: "Mock Model"}, "Mock Model"},
	} {
		if got := ModelName(c.m); got != c.want {
			t.Errorf("ModelName(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}

// A --format template prints the agent's text cleaned, its own as written:
// the user may colour a status line, a path in the status may not.
func TestTemplateSeesCleanedStatus(t *testing.T) {
	s := fullStatus()
	s.CWD = "/src/\x1b]52;c;eHg=\x07shop"
	s.Terminal = ptr("t7\x1b[2J")
	s.Model.Name = "Claude\u202e5.4"
	s.Ticket.Title = "fix\nlogin"
	s.Outputs[0].Path = "/src/\u009b2Ja.go"
	s.Switches.Tools = map[string]bool{"ba\x1bsh": false}
	s.Workflow.PRs = []json.RawMessage{[]byte("\"\u202e#12\"")}
	const tpl = "\x1b[1m{{.cwd}}|{{.terminal}}|{{.model.name}}|{{.ticket.title}}|{{(index .outputs 0).path}}|" +
		"{{range $k, $v := .switches.tools}}{{$k}}{{end}}|{{index .workflow.prs 0}}|{{ago .updatedAt}}\x1b[0m"
	var b strings.Builder
	if err := Template(&b, tpl, encode(t, s), t0); err != nil {
		t.Fatal(err)
	}
	want := "\x1b[1m/src/?]52;c;eHg=?shop|t7?[2J|Claude5.4|fix?login|/src/?2Ja.go|ba?sh|#12|5s\x1b[0m"
	if b.String() != want {
		t.Errorf("template output\n got %q\nwant %q", b.String(), want)
	}
	if s.CWD != "/src/\x1b]52;c;eHg=\x07shop" || *s.Terminal != "t7\x1b[2J" {
		t.Errorf("the status itself was changed: %q %q", s.CWD, *s.Terminal)
	}
}

func TestShortIDsTellTheSessionsApart(t *testing.T) {
	got := ShortIDs([]string{"01a228e5-aaaa", "01a228e5-bbbb", "0190abcd-cccc", "tiny"})
	want := []string{"01a228e5-a", "01a228e5-b", "0190abcd", "tiny"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("short ids %q, want %q", got, want)
	}
}

func TestTableShowsTheWaitTheAgentAndAShortID(t *testing.T) {
	var b strings.Builder
	busy := &status.Status{Session: "0190a7c2-aaaa", Agent: "claude-code", State: status.Busy,
		Attention: &status.Attention{Kind: status.AttentionPermission, Tool: "Bash"}}
	idle := &status.Status{Session: "0190a7c2-bbbb", Agent: "pi", State: status.Idle}
	Table(&b, []*status.Status{busy, idle}, nil, time.Now(), 0)
	lines := strings.Split(b.String(), "\n")
	if !regexp.MustCompile(`^◐  0190a7c2-a +claude-code +asks: Bash `).MatchString(lines[1]) ||
		!regexp.MustCompile(`^○  0190a7c2-b +pi +idle `).MatchString(lines[2]) {
		t.Errorf("table:\n%s", b.String())
	}
}
