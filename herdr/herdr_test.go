// The Herdr.app mods (app/, JavaScript) are tested here with Node's
// built-in runner, so `go test ./...` covers them.

package herdr

import (
	"bytes"
	"encoding/json"
	"jig/internal/testsrc"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/panel"
	"jig/render"
	"jig/status"
)

func TestAppMods(t *testing.T) {
	testsrc.Consult("..", ".go", ".js", ".json", ".txt", ".toml", ".mod", ".sum")
	files, err := filepath.Glob("app/test/*.test.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JS tests found under app/test (%v)", err)
	}
	for _, node := range nodes(t) {
		cmd := exec.Command(node, append([]string{"--test", "--test-reporter=spec"}, files...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s --test failed: %v\n%s", node, err, out)
		}
		t.Logf("%s:\n%s", node, out)
	}
}

// nodes are the Node binaries the mods' tests run under: the one on PATH,
// and the Node 22 .ci/provision puts in the test cache (required under
// CI=true), so both an older and a current Node run them.
func nodes(t *testing.T) []string {
	t.Helper()
	list := []string{needNode(t)}
	node22, ok := pitest.NodePath()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Node 22 at %s: run .ci/provision", node22)
		}
		t.Logf("no Node 22 at %s (.ci/provision installs it): the mods run under %s only", node22, list[0])
		return list
	}
	if node22 != list[0] {
		list = append(list, node22)
	}
	return list
}

// TestModsAgainstRealJig builds jig, writes a session in herdr-core
// terminal t7 with it, and runs the mods' real-jig tests: the Work mod must
// draw jig's own JSON exactly as `jig panel` draws it, and the Context mod
// as `jig session context` does.
func TestModsAgainstRealJig(t *testing.T) {
	testsrc.Consult("..", ".go", ".js", ".json", ".txt", ".toml", ".mod", ".sum")
	node := needNode(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "jig")
	if out, err := exec.Command("go", "build", "-o", bin, "jig/cmd/jig").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	state := filepath.Join(tmp, "state")
	env := append(os.Environ(), "JIG_STATE_DIR="+state, "HC_TERMINAL_ID=t7", "HERDR_PANE_ID=", "TMUX=", "TMUX_PANE=")

	// The fixture, as a live session of this test's process would say it.
	var fields map[string]any
	data, err := os.ReadFile("app/testdata/status_full.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"host", "pid", "startedAt", "updatedAt", "terminal", "terminalFrom", "terminals"} {
		delete(fields, k)
	}
	live, _ := json.Marshal(fields)
	write := exec.Command(bin, "session", "write", "--session", "e2e-0190a7c2", "--pid", strconv.Itoa(os.Getpid()))
	write.Env, write.Stdin = env, bytes.NewReader(live)
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("jig session write: %v\n%s", err, out)
	}
	read := exec.Command(bin, "session", "for-terminal", "t7", "--json")
	read.Env = env
	out, err := read.Output()
	if err != nil {
		t.Fatalf("jig session for-terminal t7 --json: %v", err)
	}
	s, err := status.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	// A clock both sides agree on to the second, whatever the sub-millisecond part.
	now := s.UpdatedAt.Truncate(time.Millisecond).Add(1500 * time.Millisecond)
	wantWork := filepath.Join(tmp, "work.txt")
	wantContext := filepath.Join(tmp, "context.txt")
	os.WriteFile(wantWork, []byte(strings.Join(panel.Lines(s, now), "\n")+"\n"), 0o600)
	os.WriteFile(wantContext, []byte(strings.Join(render.ContextLines(s.ContextDetail), "\n")+"\n"), 0o600)

	cmd := exec.Command(node, "--test", "--test-reporter=spec", "app/e2e/real-jig.js")
	cmd.Env = append(env, "JIG_E2E_BIN="+bin, "JIG_E2E_NOW="+now.Format(time.RFC3339Nano),
		"JIG_E2E_SESSION="+s.Session, "JIG_E2E_WANT_WORK="+wantWork, "JIG_E2E_WANT_CONTEXT="+wantContext)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Play the session's side once the panel's request arrives: take it and
	// answer in the status file, as the Pi bridge does every 2 s.
	answered := false
	deadline := time.After(60 * time.Second)
	reqFile := filepath.Join(state, "requests", status.SafeName(s.Session)+".json")
	for {
		select {
		case err := <-done:
			if err != nil || !answered {
				t.Fatalf("node --test e2e/real-jig.js (request answered: %v): %v\n%s", answered, err, log.String())
			}
			t.Logf("%s", log.String())
			return
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("node --test e2e/real-jig.js still runs after 60s:\n%s", log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if _, err := os.Stat(reqFile); answered || err != nil {
			continue
		}
		handle := exec.Command(bin, "request", "handle", "--session", s.Session)
		handle.Env = env
		handle.Stdin = strings.NewReader(`{"tools": ["read", "bash", "edit", "write", "jira", "memory"], "active": ["read", "edit", "write", "jira", "memory"], "hidden": [], "skills": ["pdf-tools", "release-notes"]}`)
		if hout, err := handle.CombinedOutput(); err != nil {
			t.Fatalf("jig request handle: %v\n%s", err, hout)
		}
		answered = true
	}
}

// needNode finds node on PATH, else the Node 22 that .ci/provision puts in
// the test cache; without either the test skips loudly (fails in CI).
func needNode(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("node"); err == nil {
		return p
	}
	if p, ok := pitest.NodePath(); ok {
		return p
	}
	pitest.Missing(t, "node is neither on PATH nor in the test cache, so the Herdr.app mods (herdr/app) are NOT tested; run .ci/provision or install Node 20+")
	return ""
}

// TestPluginManifest checks herdr-plugin.toml against Herdr 1's manifest
// rules (herdr.md §1.1): required keys, local ids without dots, argv
// commands, hookable events, a known placement. Its TOML is flat enough
// to read line by line: key = value, and [[tables]].
func TestPluginManifest(t *testing.T) {
	data, err := os.ReadFile("plugin/herdr-plugin.toml")
	if err != nil {
		t.Fatal(err)
	}
	type table map[string]string
	top := table{}
	var tables []struct {
		kind string
		keys table
	}
	cur := top
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[["):
			tables = append(tables, struct {
				kind string
				keys table
			}{strings.Trim(line, "[]"), table{}})
			cur = tables[len(tables)-1].keys
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("not key = value: %q", line)
			}
			cur[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	for _, k := range []string{"id", "name", "version", "min_herdr_version"} {
		if top[k] == "" {
			t.Errorf("manifest lacks %s", k)
		}
	}
	hookable := map[string]bool{"pane.focused": true, "pane.agent_status_changed": true, "pane.created": true, "tab.focused": true, "workspace.focused": true}
	kinds := map[string]int{}
	for _, tb := range tables {
		kinds[tb.kind]++
		var argv []string
		if err := json.Unmarshal([]byte(tb.keys["command"]), &argv); err != nil || len(argv) == 0 || argv[0] != "jig" {
			t.Errorf("[[%s]] command %s: want an argv array starting with jig", tb.kind, tb.keys["command"])
		}
		if id := tb.keys["id"]; strings.Contains(id, ".") {
			t.Errorf("[[%s]] id %s has a dot", tb.kind, id)
		}
		switch tb.kind {
		case "events":
			var on string
			json.Unmarshal([]byte(tb.keys["on"]), &on)
			if !hookable[on] {
				t.Errorf("[[events]] on %q is not a hookable event", on)
			}
		case "panes":
			if tb.keys["placement"] != `"split"` {
				t.Errorf("[[panes]] placement %s, want split", tb.keys["placement"])
			}
		case "actions":
			if tb.keys["title"] == "" || tb.keys["contexts"] == "" {
				t.Errorf("[[actions]] %s lacks title or contexts", tb.keys["id"])
			}
		}
	}
	if kinds["startup"] != 1 || kinds["events"] != 2 || kinds["panes"] != 1 || kinds["actions"] != 3 {
		t.Errorf("tables %v: want 1 startup, 2 events, 1 pane, 3 actions", kinds)
	}
}
