package board

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"jig/status"
	"jig/transcript"
)

// layoutStatuses are status files as jig writes them, of every shape a
// row reads: waiting or not, with rate limits or without, Pi's context
// detail or Claude's recent calls, an answer, hostile strings.
func layoutStatuses() []*status.Status {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	pct, cost := 42.5, 1.25
	var out []*status.Status
	for i := range 6 {
		s := &status.Status{Schema: status.Schema, Session: fmt.Sprintf("s%d", i), PID: 7, Host: "devbox",
			CWD: "/work/shop", Agent: "pi", Terminal: str("%3"), TerminalFrom: str("TMUX_PANE"),
			Terminals: []status.TerminalID{{From: "TMUX_PANE", ID: "%3", Instance: "/tmp/tmux-0/default"}},
			Model:     &status.Model{Provider: "anthropic", ID: "claude-opus-4-5", Name: "Opus 4.5"},
			State:     status.Busy, StateSince: &at, Context: status.Context{Percent: &pct}, Usage: status.Usage{Cost: &cost},
			Tools: status.Tools{Active: 7, Total: 9}, Switches: status.Switches{Tools: map[string]bool{"bash": false}},
			Ticket:    &status.Ticket{Key: "SHOP-142", Title: "Refunds \"split\"\norders"},
			Workflow:  &status.Workflow{Name: "feature", Stages: []string{"plan"}, Current: "plan"},
			StartedAt: at, UpdatedAt: at.Add(time.Minute)}
		repo := "/srv/api"
		for k := range 20 {
			s.Outputs = append(s.Outputs, status.Output{Path: fmt.Sprintf("/a,\n  \"state\": \"idle\"%d", k), Action: status.Changed, At: at, Repo: &repo})
		}
		switch i {
		case 0:
			s.Attention = &status.Attention{Kind: "permission", Since: at, Tool: "Bash"}
			s.RateLimits = &status.RateLimits{FiveHour: &status.RateLimit{UsedPercent: 17}}
		case 1: // Pi: its tools in the context detail
			s.ContextDetail = &status.ContextDetail{Tokens: 9, Parts: []status.ContextPart{{Name: "tools", Tokens: 5}}}
			for k, name := range []string{"read", "grep", "bash"} {
				s.ContextDetail.Tools = append(s.ContextDetail.Tools, status.ContextItem{Name: name, Source: "builtin", Tokens: int64(k)})
			}
			s.ContextDetail.Skills = []status.ContextItem{{Name: "skill", Source: "/x", Tokens: 1}}
		case 2: // Claude: its tools in its calls
			s.Agent, s.Ticket, s.StateSince = "claude-code", nil, nil
			for k, tool := range []string{"Bash", "Read", "Bash", "Edit\u00e9", "Read"} {
				s.Recent = append(s.Recent, status.Call{At: at.Add(time.Duration(-k) * time.Second), Tool: tool, Decision: "allow", Outcome: status.OK})
			}
			s.LastRequest = &status.Answer{ID: "r2", OK: true, Message: "done, \"all\"", At: at, Covers: []string{"r1"}}
		case 3: // little of anything
			s.Model, s.Terminal, s.TerminalFrom, s.Terminals, s.Ticket, s.Workflow, s.Outputs = nil, nil, nil, nil, nil, nil, nil
			s.State = status.Idle
		case 4: // a context detail without tools
			s.ContextDetail = &status.ContextDetail{Tokens: 9}
		}
		out = append(out, s)
	}
	return out
}

// A file in jig's layout, read field by field, gives the row its whole
// decode gives (without its outputs, which the board passes over there),
// and so does its slim form, in that layout too.
func TestFieldsGiveTheRowTheWholeFileGives(t *testing.T) {
	for _, s := range layoutStatuses() {
		doc, err := status.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		var f file
		if !decodeFields(doc, &f) {
			t.Fatalf("%s: not read field by field:\n%s", s.Session, doc)
		}
		got, err := rowOf(doc, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := *s
		c.Outputs = nil
		compact, _ := json.Marshal(&c)
		if bytes.Contains(compact, []byte("\n")) {
			t.Fatal("the compact form is in jig's layout")
		}
		want, err := rowOf(compact, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: field by field %+v\nwhole %+v", s.Session, got, want)
		}
		slimmed := Slim(doc)
		if !decodeFields(slimmed, &file{}) {
			t.Errorf("%s: the slim form is not in jig's layout:\n%s", s.Session, slimmed)
		}
		if r, err := rowOf(slimmed, nil); err != nil || !reflect.DeepEqual(r, want) {
			t.Errorf("%s: slim %+v %v\nwhole %+v\n%s", s.Session, r, err, want, slimmed)
		}
		var v map[string]any
		if err := json.Unmarshal(slimmed, &v); err != nil || v["outputs"] != nil || v["workflow"] != nil || len(slimmed) >= len(doc) && s.Outputs != nil {
			t.Errorf("%s: slim %d of %d bytes, %v:\n%s", s.Session, len(slimmed), len(doc), err, slimmed)
		}
	}
}

// A file that looks like jig's layout but is not JSON of the shape a row
// reads is decoded whole, and refused when that fails.
func TestFieldsRefuseWhatIsNotJigs(t *testing.T) {
	for _, doc := range []string{
		"{\n  \"session\": \"s\",\n  \"state\": busy\n}\n",
		"{\n  \"session\": 7\n}\n",
		"{\n  \"session\": \"s\",\n  \"recent\": [\n    {\n      \"tool\": 5\n    }\n  ]\n}\n",
		"{\n  \"session\": \"s\",\n  \"contextDetail\": {\n    \"tools\": [1]\n  }\n}\n",
		"{\n  \"se\"ssion\": \"s\"\n}\n",
	} {
		if decodeFields([]byte(doc), &file{}) {
			t.Errorf("read field by field: %q", doc)
		}
		if r, err := rowOf([]byte(doc), nil); err == nil {
			t.Errorf("a row of %q: %+v", doc, r)
		}
	}
}

// Local, reading each file once on a worker a core, gives the rows of the
// live sessions and only those, each as the file's row with the branch of
// its work tree, and their heads.
func TestLocalRowsOfTheLiveSessions(t *testing.T) {
	dir := &status.Dir{Root: t.TempDir()}
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/feature/cart\n"), 0o644)
	dead := exec.Command("true")
	dead.Run()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	want := map[string]Row{}
	for i, s := range slices.Repeat(layoutStatuses(), 5) {
		c := *s
		c.Session, c.Host, c.CWD, c.PID = fmt.Sprintf("s%02d", i), "here", filepath.Join(repo, "sub"), os.Getpid()
		if i%3 == 2 {
			c.PID = dead.Process.Pid
		}
		if _, err := dir.Write(&c, at); err != nil {
			t.Fatal(err)
		}
		if c.PID != os.Getpid() {
			continue
		}
		data, err := os.ReadFile(dir.SessionPath(c.Session))
		if err != nil {
			t.Fatal(err)
		}
		r, err := LocalRow(data, "here", transcript.NewRepoFinder())
		if err != nil {
			t.Fatal(err)
		}
		r.Branch = "feature/cart"
		want[r.Session] = r
	}
	rows, heads, err := Local(dir, status.Liveness{Host: "here"}, "here")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) || len(heads) != len(rows) {
		t.Fatalf("%d rows, %d heads; want %d", len(rows), len(heads), len(want))
	}
	for i, r := range rows {
		if !reflect.DeepEqual(r, want[r.Session]) || heads[i].Session != r.Session {
			t.Errorf("row %+v\nwant %+v (head %s)", r, want[r.Session], heads[i].Session)
		}
		if r.Project != filepath.Base(repo) && r.Project != "SHOP-142" {
			t.Errorf("project %q", r.Project)
		}
	}
}
