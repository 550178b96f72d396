package codex_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedopenai"
	"jig/internal/testsrc"
	"jig/status"
)

// The end-to-end tests drive the real Codex CLI (the version .ci/provision
// installs) against a scripted Responses server on 127.0.0.1, with jig's
// hooks put in its hooks.json and trusted in its config.toml by `jig
// install codex`, and look at the status file they keep. Without the
// provisioned Codex they skip loudly; in CI (CI=true) they fail.

const waitLimit = 60 * time.Second

// model is one Codex knows (its bundled catalog): it offers apply_patch.
const model = "gpt-5.5"

// CodexVersion is the Codex CLI version jig tests against.
const CodexVersion = "0.169.0"

func TestMain(m *testing.M) { testsrc.Main(m) }

// codexBin is the provisioned codex launcher, found as the Claude Code
// tests find Claude's; without it the test skips (fails in CI).
func codexBin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(pitest.Cache(), "codex-"+CodexVersion, "node_modules", ".bin", "codex")
	if out, err := exec.Command(bin, "--version").Output(); err != nil || !strings.Contains(string(out), CodexVersion) {
		pitest.Missing(t, fmt.Sprintf("%s is missing or does not run; run .ci/provision (the real Codex CLI %s is needed)", bin, CodexVersion))
	}
	return bin
}

// world is one isolated Codex setup: its home, CODEX_HOME, project, state
// dir and scripted model.
type world struct {
	t                                   *testing.T
	codex, jig                          string
	home, codexHome, work, state, marks string
	model                               *scriptedopenai.Server
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, codex: codexBin(t), jig: testsrc.Jig(t)}
	root := t.TempDir()
	w.home, w.codexHome, w.work = filepath.Join(root, "home"), filepath.Join(root, "codex home"), filepath.Join(root, "project")
	w.state, w.marks = filepath.Join(root, "state"), filepath.Join(root, "marks")
	for _, d := range []string{w.home, w.codexHome, w.work, w.marks} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m, err := scriptedopenai.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w.model = m
	config := fmt.Sprintf("model = %q\nmodel_provider = \"mock\"\n\n[model_providers.mock]\nname = \"mock\"\nbase_url = %q\n"+
		"wire_api = \"responses\"\nenv_key = \"MOCK_API_KEY\"\n", model, m.URL)
	if err := os.WriteFile(filepath.Join(w.codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	w.jigRun("install", "codex")
	return w
}

// env is the environment Codex runs with: only loopback, a fake tmux pane
// unless told otherwise.
func (w *world) env(extra ...string) []string {
	return append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home,
		"CODEX_HOME=" + w.codexHome,
		"MOCK_API_KEY=sk-scripted-0123456789",
		"JIG_BIN=" + w.jig,
		"JIG_STATE_DIR=" + w.state,
		"TMUX=/tmp/tmux-e2e/default,1,0",
		"TMUX_PANE=%9",
		"TERM=dumb",
	}, extra...)
}

func (w *world) jigRun(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.jig, args...)
	cmd.Env = w.env("TMUX=", "TMUX_PANE=") // a script outside tmux
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("jig %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// execArgs is `codex exec` as the tests run it: outside git, and with a
// sandbox in which a command could create a file (so that one refused is
// seen not to).
func execArgs(prompt string, more ...string) []string {
	return append(append([]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access"}, more...), prompt)
}

// run is a running codex.
type run struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan error
}

func (w *world) start(args ...string) *run {
	w.t.Helper()
	r := &run{done: make(chan error, 1)}
	r.cmd = exec.Command(w.codex, args...)
	r.cmd.Dir, r.cmd.Env, r.cmd.Stdout, r.cmd.Stderr = w.work, w.env(), &r.out, &r.out
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	w.t.Cleanup(func() { syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL) })
	return r
}

func (r *run) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("codex: %v\n%s", err, r.out.String())
		}
	case <-time.After(waitLimit):
		t.Fatalf("codex did not end\n%s", r.out.String())
	}
}

func (w *world) waitRequests(n int) {
	w.t.Helper()
	if !w.model.WaitRequests(n, waitLimit) {
		w.t.Fatalf("the model got %d requests, want %d", len(w.model.Requests()), n)
	}
}

// forTerminal is what `jig session for-terminal PANE --json` says.
func (w *world) forTerminal(pane string) *status.Status {
	w.t.Helper()
	cmd := exec.Command(w.jig, "session", "for-terminal", pane, "--json")
	cmd.Env = w.env("TMUX=", "TMUX_PANE=") // a script outside tmux: it knows no server
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("jig session for-terminal %s: %v", pane, err)
	}
	s, err := status.Decode(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// rollout is the session's rollout file.
func (w *world) rollout() string {
	w.t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(files) != 1 {
		w.t.Fatalf("%d rollouts, want 1: %v", len(files), files)
	}
	return files[0]
}

// tokenCount is the rollout's last token_count, read here apart from
// jig's reader: Codex's own count of the context and its window.
func (w *world) tokenCount() (tokens, window int64) {
	w.t.Helper()
	f, err := os.Open(w.rollout())
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e struct {
			Type    string
			Payload struct {
				Type string
				Info *struct {
					Last struct {
						Total int64 `json:"total_tokens"`
					} `json:"last_token_usage"`
					Window int64 `json:"model_context_window"`
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Payload.Type == "token_count" && e.Payload.Info != nil {
			tokens, window = e.Payload.Info.Last.Total, e.Payload.Info.Window
		}
	}
	return tokens, window
}

// sums are the server's usages of the first n replies, in the status
// file's terms: input without the cached tokens, cached as cacheRead.
func sums(replies []scriptedopenai.Reply, n int) status.Usage {
	var u status.Usage
	for _, r := range replies[:n] {
		u.Input += int64(r.Usage.Input - r.Usage.Cached)
		u.CacheRead += int64(r.Usage.Cached)
		u.Output += int64(r.Usage.Output)
	}
	return u
}

// checkStep checks the status between two model calls, after the hooks of
// the first n replies' calls: busy, the model, usage the server's, the
// context Codex's own, no value anywhere in the state dir.
func (w *world) checkStep(step, pane string, replies []scriptedopenai.Reply, n int, secrets []string) *status.Status {
	w.t.Helper()
	s := w.forTerminal(pane)
	if s.Agent != status.AgentCodex || s.State != status.Busy || s.Model == nil || s.Model.ID != model || s.Terminal == nil || *s.Terminal != pane {
		w.t.Errorf("%s: agent %q, state %s, model %+v, terminal %v; want codex, busy, %s, %s", step, s.Agent, s.State, s.Model, s.Terminal, model, pane)
	}
	got := s.Usage
	got.Cost = nil
	if want := sums(replies, n); got != want {
		w.t.Errorf("%s: usage %+v, the server's %+v", step, got, want)
	}
	tokens, window := w.tokenCount()
	if c := s.Context; c.Tokens == nil || *c.Tokens != tokens || c.Window == nil || *c.Window != window || c.Percent == nil ||
		fmt.Sprintf("%.6f", *c.Percent) != fmt.Sprintf("%.6f", float64(tokens)/float64(window)*100) {
		w.t.Errorf("%s: context %v / %v (%v%%), Codex's token_count says %d / %d", step, c.Tokens, c.Window, c.Percent, tokens, window)
	}
	w.noValues(step, secrets)
	return s
}

// noValues greps every file in the state dir for the run's argument
// values, plain, base64, hex and JSON-escaped.
func (w *world) noValues(step string, secrets []string) {
	w.t.Helper()
	filepath.WalkDir(w.state, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, v := range secrets {
			js, _ := json.Marshal(v)
			for _, enc := range []string{v, base64.StdEncoding.EncodeToString([]byte(v)), hex.EncodeToString([]byte(v)), strings.Trim(string(js), `"`)} {
				if bytes.Contains(data, []byte(enc)) {
					w.t.Errorf("%s: %s holds the value %q", step, p, enc)
				}
			}
		}
		return nil
	})
}

func (w *world) statusFiles() []string {
	files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
	return files
}

func shell(id, cmd string) scriptedopenai.Call {
	args, _ := json.Marshal(map[string]string{"cmd": cmd})
	return scriptedopenai.Call{ID: id, Name: "exec_command", Arguments: string(args)}
}

// TestExecInTmux runs `codex exec` in a real tmux pane: a command, a file
// added with apply_patch, then exec_command switched off mid-run, whose
// next call is refused without running; tmux's status line shows the
// model and context meanwhile. Then `codex exec resume` of the session,
// where the switch holds, killed hard: `jig session gc` removes its file.
func TestExecInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t)
	const content = "E2E-SECRET-CONTENT-5c1e"
	notes := filepath.Join(w.work, "notes.txt")
	ran1, ran2, ran3 := filepath.Join(w.marks, "ran1"), filepath.Join(w.marks, "ran2"), filepath.Join(w.marks, "ran3")
	secrets := []string{content, "E2E-SECRET-CMD-1", "E2E-SECRET-CMD-2", "E2E-PROMPT"}
	replies := []scriptedopenai.Reply{
		{Text: "Running.", Calls: []scriptedopenai.Call{shell("call_r1", "touch "+ran1+" # E2E-SECRET-CMD-1")},
			Usage: scriptedopenai.Usage{Input: 21000, Cached: 2000, Output: 50, Reasoning: 10}},
		{Calls: []scriptedopenai.Call{{ID: "call_p1", Name: "apply_patch", Custom: true,
			Arguments: "*** Begin Patch\n*** Add File: " + notes + "\n+" + content + "\n*** End Patch\n"}},
			Usage: scriptedopenai.Usage{Input: 32000, Cached: 20000, Output: 60}},
		{Calls: []scriptedopenai.Call{shell("call_r2", "touch "+ran2+" # E2E-SECRET-CMD-2")},
			Usage: scriptedopenai.Usage{Input: 43000, Cached: 30000, Output: 30}},
		{Text: "Done.", Usage: scriptedopenai.Usage{Input: 44000, Cached: 40000, Output: 10}},
	}

	// Codex in a pane of a private tmux server whose status line runs jig
	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.marks)
	inner, outer := testsrc.NewTmux(t, "codex-inner", env), testsrc.NewTmux(t, "codex-outer", env)
	conf := filepath.Join(w.marks, "tmux.conf")
	os.WriteFile(conf, []byte("set -g status-interval 1\nset -g status-right-length 80\nset -g remain-on-exit on\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n"), 0o600)
	var line []string
	for _, a := range append([]string{w.codex}, execArgs("E2E-PROMPT run, then write the notes")...) {
		line = append(line, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	pane := inner.Run("-f", conf, "new-session", "-d", "-s", "cx", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}",
		strings.Join(line, " ")+"; echo CODEX-EXIT=$?")
	screen := func() string { return inner.Run("capture-pane", "-p", "-t", pane) }

	// step 1: a command runs
	w.waitRequests(1)
	w.model.Queue(replies[0])
	w.waitRequests(2)
	w.checkStep("after the command", pane, replies, 1, secrets)
	if _, err := os.Stat(ran1); err != nil {
		t.Fatalf("the command did not run: %v; screen:\n%s", err, screen())
	}
	// tmux's status line, read as a user sees it: a client of the inner
	// server in a pane of an outer one, whose screen holds it
	s := w.forTerminal(pane)
	percent := fmt.Sprintf(" %.0f%% ", *s.Context.Percent)
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t cx")
	outer.Run("set", "-g", "status", "off")
	poll(t, "tmux's status line shows the model and context percentage", func() string {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		if last := rows[len(rows)-1]; !strings.Contains(last, model) || !strings.Contains(last+" ", percent) {
			return fmt.Sprintf("status line %q, want %s and%s", last, model, percent)
		}
		return ""
	})

	// step 2: apply_patch adds a file
	w.model.Queue(replies[1])
	w.waitRequests(3)
	s = w.checkStep("after the patch", pane, replies, 2, secrets)
	if len(s.Outputs) != 1 || s.Outputs[0].Path != notes || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v, want %s created", s.Outputs, notes)
	}
	if len(s.Recent) != 2 || s.Recent[0].Tool != "apply_patch" || s.Recent[0].Outcome != status.OK || s.Recent[1].Tool != "exec_command" || s.Recent[1].Action != "run" {
		t.Errorf("recent %+v", s.Recent)
	}

	// step 3: exec_command off mid-run; the next call is refused unrun
	w.jigRun("request", "tool", "exec_command", "off", "--terminal", pane)
	w.model.Queue(replies[2])
	w.waitRequests(4)
	s = w.checkStep("after the refused command", pane, replies, 3, secrets)
	if _, err := os.Stat(ran2); err == nil {
		t.Error("exec_command ran although switched off")
	}
	if s.LastRequest == nil || !s.LastRequest.OK || !strings.Contains(s.LastRequest.Message, "tool exec_command off") || s.Switches.Tools["exec_command"] {
		t.Errorf("answer %+v, switches %v; want tool exec_command off", s.LastRequest, s.Switches)
	}
	if body := string(w.model.Requests()[3].Body); !strings.Contains(body, "tool exec_command is switched off for this session") {
		t.Error("the model was not told why its command was refused")
	}
	// no hook ran since the refusal: jig's own PreToolUse recorded it
	if len(s.Recent) == 0 || s.Recent[0].Tool != "exec_command" || s.Recent[0].Outcome != status.Error {
		t.Errorf("recent %+v; want the refused exec_command error at once, not pending", s.Recent)
	}
	w.model.Queue(replies[3])
	poll(t, "Codex ends and SessionEnd removes the file", func() string {
		if !strings.Contains(screen(), "CODEX-EXIT=0") || len(w.statusFiles()) > 0 {
			return fmt.Sprintf("files %v; screen:\n%s", w.statusFiles(), screen())
		}
		return ""
	})
	w.noValues("after the run", secrets)
	sid := s.Session

	// codex exec resume: the same session, exec_command still off
	resumed := w.start(execArgs("E2E-PROMPT once more", "resume", "--last")...)
	w.waitRequests(5)
	w.model.Queue(scriptedopenai.Reply{Calls: []scriptedopenai.Call{shell("call_r3", "touch "+ran3+" # E2E-SECRET-CMD-2")},
		Usage: scriptedopenai.Usage{Input: 45000, Cached: 40000, Output: 20}})
	w.waitRequests(6)
	s = w.forTerminal("%9")
	if s.Session != sid || s.Switches.Tools["exec_command"] || s.Agent != status.AgentCodex {
		t.Errorf("resumed: session %s, switches %v; want %s with exec_command off", s.Session, s.Switches, sid)
	}
	if _, err := os.Stat(ran3); err == nil {
		t.Error("exec_command ran in the resumed session although switched off")
	}
	if body := string(w.model.Requests()[5].Body); !strings.Contains(body, "tool exec_command is switched off for this session") {
		t.Error("the resumed session's model was not told why its command was refused")
	}
	// killed hard: no SessionEnd, the file stays until gc
	syscall.Kill(-resumed.cmd.Process.Pid, syscall.SIGKILL)
	<-resumed.done
	if len(w.statusFiles()) != 1 {
		t.Fatalf("status files after kill -9: %v", w.statusFiles())
	}
	if out := w.jigRun("session", "gc"); !strings.Contains(out, "removed 1 ended session") || len(w.statusFiles()) != 0 {
		t.Errorf("gc: %q, files left %v", out, w.statusFiles())
	}
	w.noValues("after the resumed run", secrets)
}

func poll(t *testing.T, what string, check func() string) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if last = check(); last == "" {
			return
		}
	}
	t.Fatalf("%s: %s", what, last)
}

// TestInstallTrustedByCodex asks the real Codex (codex app-server's
// hooks/list) which hooks it found after `jig install codex` in a home
// with the user's own hooks and configuration: every one of jig's is
// trusted, the user's are as they were, and --uninstall gives back the
// exact files.
func TestInstallTrustedByCodex(t *testing.T) {
	w := &world{t: t, codex: codexBin(t), jig: testsrc.Jig(t)}
	root := t.TempDir()
	w.home, w.codexHome, w.work, w.state = filepath.Join(root, "home"), filepath.Join(root, "codex home"), filepath.Join(root, "project"), filepath.Join(root, "state")
	for _, d := range []string{w.home, w.codexHome, w.work} {
		os.MkdirAll(d, 0o700)
	}
	userHooks := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"^Bash$\",\n        \"hooks\": [{\"type\": \"command\", \"command\": \"audit.sh\", \"timeout\": 5}]\n      }\n    ]\n  }\n}\n"
	userConfig := "model = \"gpt-5.5\"\n\n[hooks.state.\"" + filepath.Join(w.codexHome, "hooks.json") + ":pre_tool_use:0:0\"]\nenabled = false\n\n[tui]\nanimations = false"
	os.WriteFile(filepath.Join(w.codexHome, "hooks.json"), []byte(userHooks), 0o600)
	os.WriteFile(filepath.Join(w.codexHome, "config.toml"), []byte(userConfig), 0o644)
	before := w.hooksList()
	w.jigRun("install", "codex")
	if out := w.jigRun("install", "codex"); strings.Count(out, "(up to date)") != 2 {
		t.Errorf("a second install: %s", out)
	}
	after := w.hooksList()
	if len(after.Warnings) > 0 || len(after.Errors) > 0 {
		t.Errorf("Codex warns %v, errors %v", after.Warnings, after.Errors)
	}
	jigs := 0
	fast := filepath.Join(filepath.Dir(w.jig), "jig-fast") // what the hooks run, beside jig
	for _, h := range after.Hooks {
		if !strings.Contains(h.Command, " codex hook") {
			if b := before.find(h.Key); b == nil || b.TrustStatus != h.TrustStatus || b.Enabled != h.Enabled {
				t.Errorf("the user's hook %s: %+v, before %+v", h.Key, h, b)
			}
			continue
		}
		jigs++
		if h.TrustStatus != "trusted" || !h.Enabled || h.Command != "'"+fast+"' codex hook" && h.Command != fast+" codex hook" {
			t.Errorf("jig's hook %s: %s, enabled %v, command %q", h.Key, h.TrustStatus, h.Enabled, h.Command)
		}
	}
	if jigs != 9 {
		t.Errorf("%d of jig's hooks found, want 9: %+v", jigs, after.Hooks)
	}
	w.jigRun("install", "codex", "--uninstall")
	for name, want := range map[string]string{"hooks.json": userHooks, "config.toml": userConfig} {
		if got, _ := os.ReadFile(filepath.Join(w.codexHome, name)); string(got) != want {
			t.Errorf("%s after uninstall:\n%q\nwant\n%q", name, got, want)
		}
	}
	if fi, _ := os.Stat(filepath.Join(w.codexHome, "config.toml")); fi == nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("config.toml's mode changed: %v", fi)
	}
}

type hookEntry struct {
	Key, Command, TrustStatus, CurrentHash string
	Enabled                                bool
}

type hooksListed struct {
	Hooks    []hookEntry
	Warnings []any
	Errors   []any
}

func (l hooksListed) find(key string) *hookEntry {
	for i := range l.Hooks {
		if l.Hooks[i].Key == key {
			return &l.Hooks[i]
		}
	}
	return nil
}

// hooksList asks `codex app-server` which hooks it sees for the project.
func (w *world) hooksList() hooksListed {
	w.t.Helper()
	cmd := exec.Command(w.codex, "app-server")
	cmd.Dir, cmd.Env = w.work, w.env()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"jig-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[` + quote(w.work) + `]}}`,
	} {
		io.WriteString(stdin, m+"\n")
	}
	type answer struct {
		ID     int `json:"id"`
		Result struct {
			Data []hooksListed `json:"data"`
		} `json:"result"`
	}
	got := make(chan answer, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var a answer
			if json.Unmarshal(sc.Bytes(), &a) == nil && a.ID == 2 {
				got <- a
				return
			}
		}
	}()
	select {
	case a := <-got:
		if len(a.Result.Data) != 1 {
			w.t.Fatalf("hooks/list: %+v", a)
		}
		return a.Result.Data[0]
	case <-time.After(waitLimit):
		w.t.Fatal("codex app-server did not answer hooks/list")
	}
	return hooksListed{}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
