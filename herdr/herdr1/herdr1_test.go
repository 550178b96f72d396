package herdr1

import (
	"bytes"
	"os"
	"os/exec"
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

// What a pane is sent for its session: Herdr's agent state follows the
// status (blocked while it waits for the person), ordered by the status's
// updatedAt; the transcript is reported unless the pane shows it; an agent
// jig cannot name to Herdr gets its tokens only; an ended session's pane
// gets its tokens cleared and Herdr's agent released.
func TestReports(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 5, time.UTC)
	now := at.Add(time.Minute)
	file := "/home/ana/.claude/projects/-w/s5.jsonl"
	p := Pane{PaneID: "w1:p8"}
	verbs := func(reports [][]string) string {
		var v []string
		for _, r := range reports {
			v = append(v, strings.Join(r[1:2], ""))
		}
		return strings.Join(v, " ")
	}
	for _, c := range []struct {
		name  string
		pane  Pane
		s     *status.Status
		verbs string
		agent []string // the report-agent command, when sent
	}{
		{"waits", p, &status.Status{Agent: status.AgentClaude, State: status.Busy, UpdatedAt: at, SessionFile: &file,
			Attention: &status.Attention{Kind: status.AttentionQuestion}},
			"report-metadata report-agent", // no report-agent-session: Herdr keeps one only from its own sources
			[]string{"pane", "report-agent", "w1:p8", "--source", "jig", "--agent", "claude", "--state", "blocked", "--seq", "1893456000000000005"}},
		{"busy codex", p, &status.Status{Agent: status.AgentCodex, State: status.Busy, UpdatedAt: at},
			"report-metadata report-agent",
			[]string{"pane", "report-agent", "w1:p8", "--source", "jig", "--agent", "codex", "--state", "working", "--seq", "1893456000000000005"}},
		{"idle pi, path shown", Pane{PaneID: "w1:p8", AgentSession: &AgentSession{Source: "herdr:pi", Kind: "path", Value: file}},
			&status.Status{Agent: status.AgentPi, State: status.Idle, UpdatedAt: at, SessionFile: &file},
			"report-metadata report-agent",
			[]string{"pane", "report-agent", "w1:p8", "--source", "jig", "--agent", "pi", "--state", "idle", "--seq", "1893456000000000005"}},
		{"busy opencode, by its registered label", p, &status.Status{Agent: "t-opencode", State: status.Busy, UpdatedAt: at},
			"report-metadata report-agent",
			[]string{"pane", "report-agent", "w1:p8", "--source", "jig", "--agent", "opencode", "--state", "working", "--seq", "1893456000000000005"}},
		{"unknown agent", p, &status.Status{State: status.Busy, UpdatedAt: at}, "report-metadata", nil},
		{"registered without a Herdr label", p, &status.Status{Agent: "t-unnamed", State: status.Busy, UpdatedAt: at}, "report-metadata", nil},
		{"ended, agent seen", Pane{PaneID: "w1:p8", Agent: "claude", Tokens: map[string]string{"jig_ctx": "1%"}}, nil,
			"report-metadata release-agent", nil},
		{"ended, no agent", Pane{PaneID: "w1:p8", Tokens: map[string]string{"jig_cost": "$1"}}, nil, "report-metadata", nil},
		{"never jig's", Pane{PaneID: "w1:p8", Agent: "pi", Tokens: map[string]string{"ctx": "1%"}}, nil, "", nil},
	} {
		got := Reports(c.pane, c.s, now)
		if v := verbs(got); v != c.verbs {
			t.Errorf("%s: sends %q, want %q", c.name, v, c.verbs)
		}
		for _, r := range got {
			switch r[1] {
			case "report-agent":
				if strings.Join(r, " ") != strings.Join(c.agent, " ") {
					t.Errorf("%s: %q, want %q", c.name, r, c.agent)
				}
			case "release-agent":
				if want := "pane release-agent w1:p8 --source jig --agent claude --seq 1893456060000000005"; strings.Join(r, " ") != want {
					t.Errorf("%s: %q, want %q", c.name, r, want)
				}
			}
		}
	}
}

// The stand-in herdr the tests use accepts exactly what Herdr 0.8.0's
// src/cli/pane.rs accepts: the same messages, the same exit codes, nothing
// on stdout on success. Each case is one branch of its parsers.
func TestStandInParsesAsHerdr(t *testing.T) {
	tmp := t.TempDir()
	panes := filepath.Join(tmp, "panes.json")
	if err := os.WriteFile(panes, []byte(`{"result":{"panes":[{"pane_id":"w1:p2"}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := "--source jig --agent pi"
	w := strings.Fields
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{w("pane report-agent w1:p2 " + ok + " --state blocked"), 0, ""},
		{w("pane report-agent w1:p2 --state working --agent claude --source jig --seq +7 --message m --agent-session-id i --agent-session-path /p"), 0, ""},
		{w("pane report-agent w1:p2 " + ok + " --state idle --seq 18446744073709551615"), 0, ""},
		{w("pane report-agent w1:p2 " + ok + " --state unknown --state idle"), 0, ""},
		{w("pane report-agent"), 2, "usage: herdr pane report-agent <pane_id> --source ID --agent LABEL --state idle|working|blocked|unknown [--message TEXT] [--seq N] [--agent-session-id ID] [--agent-session-path PATH]"},
		{w("pane report-agent w1:p2 " + ok + " --state done"), 1, `Error: Custom { kind: Other, error: "invalid pane agent state: done (expected idle, working, blocked, or unknown)" }`},
		{w("pane report-agent w1:p2 " + ok + " --state idle --seq 18446744073709551616"), 1, `Error: Custom { kind: Other, error: "invalid value for --seq: 18446744073709551616" }`},
		{w("pane report-agent w1:p2 " + ok + " --state idle --seq -1"), 1, `Error: Custom { kind: Other, error: "invalid value for --seq: -1" }`},
		{w("pane report-agent w1:p2 " + ok), 2, "missing required --state"},
		{w("pane report-agent w1:p2 --agent pi --state idle"), 2, "missing required --source"},
		{w("pane report-agent w1:p2 --source --agent pi --state idle"), 2, "unknown option: pi"}, // --agent is --source's value
		{[]string{"pane", "report-agent", "w1:p2", "--source", "  ", "--agent", "pi", "--state", "idle"}, 2, "missing required --source"},
		{w("pane report-agent w1:p2 --source jig --state idle"), 2, "missing required --agent"},
		{w("pane report-agent w1:p2 " + ok + " --state"), 2, "missing value for --state"},
		{w("pane report-agent w1:p2 " + ok + " --state idle --session-start-source new"), 2, "unknown option: --session-start-source"},
		{w("pane report-agent w1:p9 " + ok + " --state idle"), 1, `{"id":"cli:request","error":{"code":"pane_not_found","message":"pane w1:p9 not found"}}`},
		{w("pane report-agent-session w1:p2 " + ok + " --agent-session-path /p --session-start-source startup"), 0, ""},
		{w("pane report-agent-session w1:p2 " + ok + " --state idle"), 2, "unknown option: --state"},
		{w("pane report-agent-session w1:p2 --source jig"), 2, "missing required --agent"},
		{w("pane release-agent w1:p2 " + ok + " --seq 3"), 0, ""},
		{w("pane release-agent w1:p2 " + ok + " --agent-session-path /p"), 2, "unknown option: --agent-session-path"},
		{w("pane release-agent"), 2, "usage: herdr pane release-agent <pane_id> --source ID --agent LABEL [--seq N]"},
		{w("pane report-metadata w1:p2 --source jig --token jig_ctx=52% --clear-token jig_cost"), 0, ""},
		{w("pane report-metadata w1:p2 --source jig --token =1"), 2, "token name must not be empty"},
		{w("pane report-metadata w1:p2 --source jig --token x"), 2, "token must use NAME=VALUE"},
		{w("pane report-metadata w1:p2 --source jig"), 2, "missing metadata field to set or clear"},
		{w("pane report-metadata w1:p2 --source jig --title t --clear-title"), 2, "cannot set and clear the same metadata field"},
		{w("pane report-metadata w1:p2 --source jig --state-label Sleeping=z"), 2, "unknown state label: sleeping"},
		{w("pane report-metadata w1:p2 --source jig --token a=b --ttl-ms x"), 1, `Error: Custom { kind: Other, error: "invalid value for --ttl-ms: x" }`},
		{w("pane report-agent w1:p2 --state bogus -h"), 0, ""}, // spec.rs: --help anywhere prints help, does nothing
	} {
		cmd := exec.Command("sh", append([]string{"testdata/herdr"}, c.args...)...)
		cmd.Env = append(os.Environ(), "HERDR_PANES="+panes, "HERDR_CALLS="+filepath.Join(tmp, "calls"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, isExit := err.(*exec.ExitError); isExit {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || strings.TrimSpace(stderr.String()) != c.stderr {
			t.Errorf("herdr %s: exit %d, stderr %q; want exit %d, %q", c.args, code, stderr.String(), c.code, c.stderr)
		}
		if stdout.Len() > 0 && c.args[len(c.args)-1] != "-h" {
			t.Errorf("herdr %s: printed %q on success", c.args, stdout.String())
		}
	}
}
