package herdr1

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// Herdr 1 draws the model token in its sidebar: cleaned, and every value
// cut to Herdr's 80 characters.
func TestTokensCleanedAndCut(t *testing.T) {
	got := Tokens(&status.Status{Model: &status.Model{ID: "p/cl\x1b]0;x\x07\u202eaude"}})
	if got[2] != "jig_model=cl?]0;x?aude" || got[0] != "jig_ctx=?" || got[1] != "jig_cost=?" {
		t.Errorf("tokens %q", got)
	}
	long := strings.Repeat("é", 100)
	got = Tokens(&status.Status{Model: &status.Model{ID: long}})
	if want := "jig_model=" + strings.Repeat("é", 79) + "…"; got[2] != want {
		t.Errorf("long model token %q, want %q", got[2], want)
	}
}

func TestSessionID(t *testing.T) {
	for path, want := range map[string]string{
		"/s/--w--/2026-04-15T14-06-36-868Z_c8920823-04f1-4776-af1d-a9f50586fe9c.jsonl": "c8920823-04f1-4776-af1d-a9f50586fe9c",
		"/s/2026-04-15T14-06-36-868Z_my_custom_id.jsonl":                               "my_custom_id",
		"/s/2026-04-15T14-06-36-868Z_.jsonl":                                           "",
		"/s/no-underscore.jsonl":                                                       "",
		"/s/2026-04-15T14-06-36-868Z_x.json":                                           "",
	} {
		got, ok := SessionID(path)
		if got != want || ok != (want != "") {
			t.Errorf("SessionID(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

// Herdr's errors come on stderr as a JSON error response; a dead server's
// names a socket path, and is said in words.
func TestErrorText(t *testing.T) {
	for in, want := range map[string]string{
		`{"id":"cli:pane:list","error":{"code":"server_not_running","message":"no herdr server is running at /tmp/h.sock; run ` + "`herdr`" + ` to start or attach it"}}` + "\n": "herdr is not running",
		`{"id":"cli:pane:list","error":{"code":"pane_not_found","message":"pane w1:p9 not found"}}`:                                                                              "pane_not_found: pane w1:p9 not found",
		"missing required --source\nmore\n": "missing required --source",
		"":                                  "",
	} {
		if got := errorText([]byte(in)); got != want {
			t.Errorf("errorText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A pane's session is found through the terminal index, or through the
// session id in its Pi transcript's name, whose status must name that
// transcript; a session that claims the path under another id is not read.
func TestSessionFor(t *testing.T) {
	dir, err := status.Locate(func(k string) string {
		if k == "JIG_STATE_DIR" {
			return filepath.Join(t.TempDir(), "state")
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := dir.Ensure(status.SessionsDir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	file := "/p/2026-04-15T14-06-36-868Z_s2.jsonl"
	other := "/p/2026-04-15T14-06-36-868Z_s9.jsonl"
	for _, s := range []*status.Status{
		{Schema: status.Schema, Session: "s1", PID: os.Getpid(), State: "busy",
			Terminals: []status.TerminalID{{From: "HERDR_PANE_ID", ID: "w1:p2"}}},
		{Schema: status.Schema, Session: "s2", PID: os.Getpid(), State: "idle", SessionFile: &file},
		{Schema: status.Schema, Session: "s3", PID: os.Getpid(), State: "idle", SessionFile: &other},
	} {
		if _, err := dir.Write(s, now); err != nil {
			t.Fatal(err)
		}
	}
	live := status.Liveness{}
	for _, c := range []struct {
		pane Pane
		want string
	}{
		{Pane{PaneID: "w1:p2"}, "s1"},
		{Pane{PaneID: "w1:p3", AgentSession: &AgentSession{Kind: "path", Value: file}}, "s2"},
		{Pane{PaneID: "w1:p4", AgentSession: &AgentSession{Kind: "path", Value: "/q/2026-04-15T14-06-36-868Z_s2.jsonl"}}, ""},
		{Pane{PaneID: "w1:p5", AgentSession: &AgentSession{Kind: "path", Value: other}}, ""},
		{Pane{PaneID: "w1:p6", AgentSession: &AgentSession{Kind: "id", Value: "s2"}}, ""},
	} {
		s, err := SessionFor(dir, live, c.pane)
		got := ""
		if s != nil {
			got = s.Session
		}
		if err != nil || got != c.want {
			t.Errorf("pane %s: session %q, %v; want %q", c.pane.PaneID, got, err, c.want)
		}
	}
}
