package status

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Every field at ten times its limit, in bytes JSON escapes six-fold: after
// Normalize the file is still far below what readers take, so no writer
// can make a file its readers refuse.
func TestBoundedFileFitsTheReadLimit(t *testing.T) {
	huge := func(n int) string { return strings.Repeat("\x01", 10*n) }
	p := func(v string) *string { return &v }
	s := &Status{Session: strings.Repeat("s", MaxID), PID: 1, Host: huge(MaxName), CWD: huge(MaxPath),
		AgentDir: huge(MaxPath), SessionFile: p(huge(MaxPath)), Terminal: p(huge(MaxName)), TerminalFrom: p(huge(MaxName)),
		Model: &Model{huge(MaxName), huge(MaxName), huge(MaxName)}, Thinking: p(huge(MaxName)),
		Ticket:        &Ticket{huge(MaxName), huge(MaxText), huge(MaxText), huge(MaxName)},
		Workflow:      &Workflow{Name: huge(MaxName), Current: huge(MaxName), Since: huge(MaxName), Problem: huge(MaxText)},
		Switches:      Switches{Tools: map[string]bool{}, Skills: map[string]bool{}},
		ContextDetail: &ContextDetail{},
		LastRequest:   &Answer{ID: huge(MaxName), Message: huge(MaxText)},
		Attention:     &Attention{Kind: AttentionPermission, Since: time.Unix(1, 0), Tool: strings.Repeat("t", MaxName)},
	}
	resets := time.Date(2030, 1, 1, 0, 0, 0, 123456789, time.UTC)
	s.RateLimits = &RateLimits{FiveHour: &RateLimit{1e300, &resets}, Weekly: &RateLimit{1e300, &resets}}
	for range 10 * MaxTerminals {
		s.Terminals = append(s.Terminals, TerminalID{huge(MaxName), huge(MaxName), huge(MaxPath)})
	}
	for range 10 * MaxStages {
		s.Workflow.Stages = append(s.Workflow.Stages, huge(MaxName))
		pr, _ := json.Marshal(strings.Repeat("\x01", MaxPRBytes/6-2))
		s.Workflow.PRs = append(s.Workflow.PRs, pr)
	}
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2 * MaxOutputsPerKind {
		path := fmt.Sprintf("/%d%s", i, huge(MaxPath))
		o := Output{Path: path, Action: Created, At: at}
		if i%2 == 0 {
			o.Repo = p(huge(MaxPath))
		}
		s.Outputs = append(s.Outputs, o)
	}
	for range 2 * MaxRecent {
		s.Recent = append(s.Recent, Call{At: at, Tool: huge(MaxName), Action: "read-part", Outcome: OK})
	}
	for i := range MaxSwitches {
		name := fmt.Sprintf("%d%s", i, strings.Repeat("\x01", MaxName-4))
		s.Switches.Tools[name], s.Switches.Skills[name] = false, true
	}
	for range 10 * MaxItems {
		c := s.ContextDetail
		c.Parts = append(c.Parts, ContextPart{Name: huge(MaxName), Tokens: 1 << 40})
		item := ContextItem{Name: huge(MaxName), Source: huge(MaxName), Tokens: 1 << 40, Off: true}
		c.Tools, c.Skills, c.Files = append(c.Tools, item), append(c.Skills, item), append(c.Files, item)
	}
	for range 10 * MaxCovers {
		s.LastRequest.Covers = append(s.LastRequest.Covers, huge(MaxName))
	}
	s.Normalize()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > MaxFileSize {
		t.Fatalf("a file with every field at its limit is %d bytes, over the %d readers take", len(data), MaxFileSize)
	}
	t.Logf("the largest status file: %d bytes (%.0f%% of the read limit)", len(data), 100*float64(len(data))/MaxFileSize)

	// And it goes through Write and comes back.
	d := &Dir{Root: t.TempDir()}
	s.PID = os.Getpid()
	if _, err := d.Write(s, at); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(s.Session); err != nil {
		t.Fatal(err)
	}
}

func TestCutTo(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer value", 10, "a longe…"},
		{"ééééé", 8, "éé…"}, // never half a character
	} {
		got := CutTo(tc.in, tc.n)
		if got != tc.want || len(got) > tc.n || !utf8.ValidString(got) {
			t.Errorf("CutTo(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
