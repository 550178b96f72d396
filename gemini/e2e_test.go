package gemini_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedgemini"
	"jig/internal/testsrc"
	"jig/status"
)

// The end-to-end tests drive the real Gemini CLI (the version
// .ci/provision installs) against a scripted Gemini API server on
// 127.0.0.1, with jig's hooks put in its settings.json by `jig install
// gemini`, and look at the status file they keep. Without the provisioned
// Gemini CLI they skip loudly; in CI (CI=true) they fail.

const waitLimit = 90 * time.Second

const model = "gemini-2.5-flash"

func TestMain(m *testing.M) { testsrc.Main(m) }

// world is one isolated Gemini setup: its home, project, state dir and
// scripted model.
type world struct {
	t                       *testing.T
	gemini, jig             string
	home, work, state, mark string
	model                   *scriptedgemini.Server
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, gemini: pitest.Agent(t, "gemini", pitest.GeminiVersion, "gemini"), jig: testsrc.Jig(t)}
	root := testsrc.TempDirOutlived(t) // Gemini may write in it a moment after a kill
	w.home, w.work, w.state, w.mark = filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "state"), filepath.Join(root, "marks")
	for _, d := range []string{filepath.Join(w.home, ".gemini"), w.work, w.mark} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m, err := scriptedgemini.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w.model = m
	// offline: the API key's auth against the scripted server, no
	// telemetry, no update check, no folder trust prompt
	settings := `{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "enableAutoUpdate": false},
  "model": {"name": "` + model + `"}
}
`
	if err := os.WriteFile(filepath.Join(w.home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	w.jigRun("install", "gemini")
	return w
}

// env is the environment Gemini runs with: only loopback, Node on PATH, a
// fake tmux pane unless told otherwise.
func (w *world) env(extra ...string) []string {
	return append([]string{
		"PATH=" + pitest.NodeBinDir() + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home,
		"GEMINI_API_KEY=scripted-key",
		"GOOGLE_GEMINI_BASE_URL=" + w.model.URL,
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
	cmd.Env = w.env("TMUX=", "TMUX_PANE=")
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

// sums are the server's usages of the first n replies in the status
// file's terms: input without the cached tokens, output with the
// thoughts, cached as cacheRead.
func sums(replies []scriptedgemini.Reply, n int) status.Usage {
	var u status.Usage
	for _, r := range replies[:n] {
		u.Input += int64(r.Usage.Prompt - r.Usage.Cached)
		u.CacheRead += int64(r.Usage.Cached)
		u.Output += int64(r.Usage.Candidates + r.Usage.Thoughts)
	}
	return u
}

// checkStep checks the status between two model calls, after the hooks of
// the first n replies' calls: agent gemini, busy, the model, usage the
// server's, the context the latest prompt's, no value in the state dir.
func (w *world) checkStep(step, pane string, replies []scriptedgemini.Reply, n int, secrets []string) *status.Status {
	w.t.Helper()
	s := w.forTerminal(pane)
	if s.Agent != "gemini" || s.State != status.Busy || s.Model == nil || s.Model.ID != model || s.Model.Provider != "google" {
		w.t.Errorf("%s: agent %q, state %s, model %+v; want gemini, busy, google/%s", step, s.Agent, s.State, s.Model, model)
	}
	got := s.Usage
	if want := sums(replies, n); got != want {
		w.t.Errorf("%s: usage %+v, the server's %+v (cost must be null)", step, got, want)
	}
	if c := s.Context; c.Tokens == nil || *c.Tokens != int64(replies[n-1].Usage.Prompt) || c.Window != nil || c.Percent != nil {
		w.t.Errorf("%s: context %v / %v, want %d tokens of an unknown window", step, c.Tokens, c.Window, replies[n-1].Usage.Prompt)
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

func shell(cmd string) scriptedgemini.Call {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return scriptedgemini.Call{Name: "run_shell_command", Args: string(args)}
}

func writeFile(path, content string) scriptedgemini.Call {
	args, _ := json.Marshal(map[string]string{"file_path": path, "content": content})
	return scriptedgemini.Call{Name: "write_file", Args: string(args)}
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

// TestPrintRun runs `gemini -p --approval-mode yolo`: a shell command, a
// file written, then run_shell_command switched off mid-run, whose next
// call is refused without running and the reason reaches the model. At
// each step the status says agent gemini, busy, the model and the usage
// the server sent; at the end SessionEnd removes the file, and no value
// was ever written under the state dir. Then `gemini --resume latest`:
// the same session, its switch still off.
func TestPrintRun(t *testing.T) {
	w := newWorld(t)
	const content = "E2E-SECRET-CONTENT-9d2f"
	notes := filepath.Join(w.work, "notes.txt")
	ran1, ran2 := filepath.Join(w.mark, "ran1"), filepath.Join(w.mark, "ran2")
	secrets := []string{content, "E2E-SECRET-CMD-1", "E2E-SECRET-CMD-2", "E2E-PROMPT"}
	replies := []scriptedgemini.Reply{
		{Calls: []scriptedgemini.Call{shell("touch " + ran1 + " # E2E-SECRET-CMD-1")},
			Usage: scriptedgemini.Usage{Prompt: 21000, Cached: 2000, Candidates: 50, Thoughts: 10}},
		{Calls: []scriptedgemini.Call{writeFile(notes, content+"\n")},
			Usage: scriptedgemini.Usage{Prompt: 32000, Cached: 20000, Candidates: 60, Thoughts: 5}},
		{Calls: []scriptedgemini.Call{shell("touch " + ran2 + " # E2E-SECRET-CMD-2")},
			Usage: scriptedgemini.Usage{Prompt: 43000, Cached: 30000, Candidates: 30}},
		{Text: "Done.", Usage: scriptedgemini.Usage{Prompt: 44000, Cached: 40000, Candidates: 10}},
	}
	run := w.start("-p", "E2E-PROMPT run, then write the notes", "--approval-mode", "yolo")

	// the first request waits: the prompt's hooks ran
	w.waitRequests(1)
	if s := w.forTerminal("%9"); s.Agent != "gemini" || s.State != status.Busy || s.Model == nil || s.Model.ID != model {
		t.Errorf("before the first reply: agent %q, state %s, model %+v", s.Agent, s.State, s.Model)
	}
	// step 1: a command runs
	w.model.Queue(replies[0])
	w.waitRequests(2)
	s := w.checkStep("after the command", "%9", replies, 1, secrets)
	if _, err := os.Stat(ran1); err != nil {
		t.Fatalf("the command did not run: %v\n%s", err, run.out.String())
	}
	if len(s.Recent) != 1 || s.Recent[0].Tool != "run_shell_command" || s.Recent[0].Action != "run" || s.Recent[0].Outcome != status.OK {
		t.Errorf("recent %+v", s.Recent)
	}
	// step 2: a file written
	w.model.Queue(replies[1])
	w.waitRequests(3)
	s = w.checkStep("after the write", "%9", replies, 2, secrets)
	if len(s.Outputs) != 1 || s.Outputs[0].Path != notes || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v, want %s created", s.Outputs, notes)
	}
	// step 3: run_shell_command off mid-run; the next call is refused unrun
	w.jigRun("request", "tool", "run_shell_command", "off", "--terminal", "%9")
	w.model.Queue(replies[2])
	w.waitRequests(4)
	s = w.checkStep("after the refused command", "%9", replies, 3, secrets)
	if _, err := os.Stat(ran2); err == nil {
		t.Error("run_shell_command ran although switched off")
	}
	if s.LastRequest == nil || !s.LastRequest.OK || !strings.Contains(s.LastRequest.Message, "tool run_shell_command off") || s.Switches.Tools["run_shell_command"] {
		t.Errorf("answer %+v, switches %v; want tool run_shell_command off", s.LastRequest, s.Switches)
	}
	if len(s.Recent) == 0 || s.Recent[0].Tool != "run_shell_command" || s.Recent[0].Outcome != status.Error {
		t.Errorf("recent %+v, want the refused call an error", s.Recent)
	}
	if body := string(w.model.Requests()[3].Body); !strings.Contains(body, "tool run_shell_command is switched off for this session") {
		t.Error("the model was not told why its command was refused")
	}
	w.model.Queue(replies[3])
	run.wait(t)
	if files := w.statusFiles(); len(files) != 0 {
		t.Errorf("status files after the run: %v", files)
	}
	w.noValues("after the run", secrets)

	// gemini --resume latest: the same session, run_shell_command still off
	ran3 := filepath.Join(w.mark, "ran3")
	resumed := w.start("-p", "E2E-PROMPT once more", "--approval-mode", "yolo", "--resume", "latest")
	w.model.Queue(scriptedgemini.Reply{Calls: []scriptedgemini.Call{shell("touch " + ran3 + " # E2E-SECRET-CMD-2")},
		Usage: scriptedgemini.Usage{Prompt: 45000, Cached: 40000, Candidates: 20}})
	w.waitRequests(6)
	if r := w.forTerminal("%9"); r.Session != s.Session || r.Switches.Tools["run_shell_command"] {
		t.Errorf("resumed: session %s, switches %v; want %s with run_shell_command off", r.Session, r.Switches, s.Session)
	}
	if _, err := os.Stat(ran3); err == nil {
		t.Error("run_shell_command ran in the resumed session although switched off")
	}
	w.model.Queue(scriptedgemini.Reply{Text: "Done.", Usage: scriptedgemini.Usage{Prompt: 46000, Candidates: 5}})
	resumed.wait(t)
	w.noValues("after the resumed run", secrets)
}

// run is a running gemini.
type run struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan error
}

func (w *world) start(args ...string) *run {
	w.t.Helper()
	r := &run{done: make(chan error, 1)}
	r.cmd = exec.Command(w.gemini, args...)
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
			t.Fatalf("gemini: %v\n%s", err, r.out.String())
		}
	case <-time.After(waitLimit):
		t.Fatalf("gemini did not end\n%s", r.out.String())
	}
}

// TestApprovalInTmux runs Gemini CLI interactively in a real tmux pane:
// a write_file call waits for the person's approval, the status says so
// (attention permission for write_file) and tmux's status line shows ◐;
// answering it clears both. Killed hard, Gemini leaves its file, which
// `jig session gc` removes.
func TestApprovalInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t)
	const content = "E2E-SECRET-CONTENT-61aa"
	notes := filepath.Join(w.work, "asked.txt")
	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.mark)
	tm, outer := testsrc.NewTmux(t, "gemini", env), testsrc.NewTmux(t, "gemini-outer", env)
	conf := filepath.Join(w.mark, "tmux.conf")
	os.WriteFile(conf, []byte("set -g remain-on-exit on\nset -g status-interval 1\nset -g status-right-length 80\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n"), 0o600)
	pane := tm.Run("-f", conf, "new-session", "-d", "-s", "gm", "-x", "150", "-y", "45", "-c", w.work, "-P", "-F", "#{pane_id}",
		"'"+w.gemini+"'; echo GEMINI-EXIT=$?")
	screen := func() string { return tm.Run("capture-pane", "-p", "-t", pane) }
	// tmux's status line as a user sees it: a client of the pane's server
	// in a pane of an outer one, whose screen holds it
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "46", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+tm.Socket+" attach -t gm")
	outer.Run("set", "-g", "status", "off")
	bar := func() string {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		return rows[len(rows)-1]
	}
	poll(t, "Gemini starts and its session's file is there", func() string {
		if files := w.statusFiles(); len(files) != 1 || !strings.Contains(screen(), "Type your message") {
			return fmt.Sprintf("files %v; screen:\n%s", files, screen())
		}
		return ""
	})
	w.model.Queue(
		scriptedgemini.Reply{Calls: []scriptedgemini.Call{writeFile(notes, content+"\n")}, Usage: scriptedgemini.Usage{Prompt: 600, Candidates: 20}},
		scriptedgemini.Reply{Text: "All done.", Usage: scriptedgemini.Usage{Prompt: 900, Candidates: 10}},
	)
	tm.Run("send-keys", "-t", pane, "-l", "write the notes")
	poll(t, "the prompt is typed", func() string {
		if sc := screen(); !strings.Contains(sc, "write the notes") {
			return "screen:\n" + sc
		}
		return ""
	})
	// Gemini CLI takes keys that come in one burst for a paste, its Enter
	// a newline in it: Enter again until the prompt goes
	for try := 0; try < 10 && !w.model.WaitRequests(1, time.Second); try++ {
		tm.Run("send-keys", "-t", pane, "Enter")
	}
	poll(t, "Gemini asks, and the file says what waits", func() string {
		s := w.forTerminal(pane)
		if a := s.Attention; a == nil || a.Kind != status.AttentionPermission || a.Tool != "write_file" || s.State != status.Busy {
			return fmt.Sprintf("attention %+v, state %s; want permission for write_file, busy; screen:\n%s", s.Attention, s.State, screen())
		}
		return ""
	})
	poll(t, "tmux's status line shows the attention glyph", func() string {
		if b := bar(); !strings.Contains(b, "◐ write_file") {
			return fmt.Sprintf("status line %q, want ◐ write_file", b)
		}
		return ""
	})
	poll(t, "Gemini's screen shows the prompt", func() string {
		if sc := screen(); !strings.Contains(sc, "Allow once") {
			return "screen:\n" + sc
		}
		return ""
	})
	// "1. Allow once", Enter again while the dialog is still there (a key
	// may come before it takes keys)
	for try := 0; try < 10 && strings.Contains(screen(), "Allow once"); try++ {
		tm.Run("send-keys", "-t", pane, "Enter")
		time.Sleep(time.Second)
	}
	poll(t, "the answer clears the wait and the turn ends", func() string {
		s := w.forTerminal(pane)
		if s.Attention != nil || s.State != status.Idle {
			return fmt.Sprintf("attention %+v, state %s; screen:\n%s", s.Attention, s.State, screen())
		}
		return ""
	})
	poll(t, "the glyph goes from tmux's status line", func() string {
		if b := bar(); strings.Contains(b, "◐") || !strings.Contains(b, "○") {
			return fmt.Sprintf("status line %q, want ○ and no ◐", b)
		}
		return ""
	})
	s := w.forTerminal(pane)
	if _, err := os.Stat(notes); err != nil {
		t.Errorf("the approved write did not happen: %v", err)
	}
	if len(s.Outputs) != 1 || s.Outputs[0].Path != notes || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", s.Outputs)
	}
	w.noValues("after the approval", []string{content, "write the notes"})
	// killed hard: no SessionEnd, the file stays until gc
	if err := syscall.Kill(s.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	poll(t, "Gemini's process ends", func() string {
		if err := syscall.Kill(s.PID, 0); err == nil {
			return "still running"
		}
		return ""
	})
	if len(w.statusFiles()) != 1 {
		t.Fatalf("status files after kill -9: %v", w.statusFiles())
	}
	if out := w.jigRun("session", "gc"); !strings.Contains(out, "removed 1 ended session") || len(w.statusFiles()) != 0 {
		t.Errorf("gc: %q, files left %v", out, w.statusFiles())
	}
}
