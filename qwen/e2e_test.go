package qwen_test

import (
	"bytes"
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
	"jig/internal/scriptedmodel"
	"jig/internal/testsrc"
	"jig/qwen"
	"jig/status"
)

// The end-to-end tests drive the real Qwen Code (the version .ci/provision
// installs, on its Node 22) against the scripted Chat Completions server on
// 127.0.0.1, with jig's hooks put in its settings by `jig install qwen`,
// and look at the status file they keep. Without the provisioned Qwen
// they skip loudly; in CI (CI=true) they fail.

const waitLimit = 90 * time.Second

// model is the model the tests ask for (OPENAI_MODEL).
const model = "scripted-qwen"

func TestMain(m *testing.M) { testsrc.Main(m) }

// world is one isolated Qwen setup: its home, project, state dir and
// scripted model.
type world struct {
	t                  *testing.T
	qwen, jig          string
	home, work, state  string
	model              *scriptedmodel.Server
	sessions, requests func() []string
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, qwen: pitest.Agent(t, "qwen", pitest.QwenVersion, "qwen"), jig: testsrc.Jig(t)}
	root := testsrc.TempDirOutlived(t) // Qwen may write in it a moment after a kill
	w.home, w.work, w.state = filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "state")
	for _, d := range []string{filepath.Join(w.home, ".qwen"), w.work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Qwen's own settings for an offline run: no folder-trust question,
	// no telemetry, no update check; jig's hooks go in beside them.
	os.WriteFile(filepath.Join(w.home, ".qwen", "settings.json"), []byte(`{
  "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": false}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "enableAutoUpdate": false}
}
`), 0o600)
	m, err := scriptedmodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w.model = m
	w.run("install", "qwen")
	return w
}

// env is the environment Qwen runs with: only loopback, Node 22 first on
// the PATH, jig found through JIG_BIN, no terminal of the test's.
func (w *world) env(extra ...string) []string {
	return append([]string{
		"PATH=" + pitest.NodeBinDir() + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home, "JIG_BIN=" + w.jig, "JIG_STATE_DIR=" + w.state,
		"OPENAI_BASE_URL=" + w.model.URL, "OPENAI_API_KEY=sk-scripted", "OPENAI_MODEL=" + model,
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1", "QWEN_DISABLE_AUTO_TITLE=1", "NO_COLOR=1",
		"TMUX=", "TMUX_PANE=", "TERM=dumb",
	}, extra...)
}

// run runs jig with args in Qwen's environment and returns its stdout.
func (w *world) run(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.jig, args...)
	cmd.Env, cmd.Dir = w.env(), w.work
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("jig %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// status is the one session's status file, nil while there is none.
func (w *world) status() *status.Status {
	files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
	if len(files) != 1 {
		return nil
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return nil
	}
	s, _ := status.Decode(data)
	return s
}

// describe is what a failing test says of a status.
func describe(s *status.Status) string {
	if s == nil {
		return "no status file"
	}
	return fmt.Sprintf("state %s, attention %+v, model %+v, usage %+v, context %+v, outputs %+v, recent %+v, switches %+v",
		s.State, s.Attention, s.Model, s.Usage, s.Context, s.Outputs, s.Recent, s.Switches)
}

// poll waits until check says nothing is missing.
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

// waitRequests waits for the agent's n-th model request.
func (w *world) waitRequests(n int, done <-chan struct{}) {
	w.t.Helper()
	if !w.model.WaitRequests(n, done) {
		w.t.Fatalf("Qwen ended before its model request %d", n)
	}
}

func call(id, name string, args any) scriptedmodel.ToolCall {
	data, _ := json.Marshal(args)
	return scriptedmodel.ToolCall{ID: id, Name: name, Args: string(data)}
}

// TestPrintRun: `qwen --yolo -p` with a shell call, a file write and a
// call of the shell switched off mid-run. The file says agent qwen-code,
// busy while the model works, the model, the call and the file written;
// the switched-off call is refused before it runs and its reason reaches
// the model; after the turn the usage and context are the server's own
// figures; no argument value is under the state dir; and the file, left
// by a print run (Qwen fires no SessionEnd there), goes at gc.
func TestPrintRun(t *testing.T) {
	w := newWorld(t)
	hello, marker := filepath.Join(w.work, "hello.txt"), filepath.Join(w.work, "marker-E2E")
	replies := []scriptedmodel.Reply{
		{ToolCalls: []scriptedmodel.ToolCall{call("call_1", "run_shell_command", map[string]string{"command": "echo E2E-SHELL > ran.txt", "description": "x"})},
			Usage: scriptedmodel.Usage{Prompt: 1000, Completion: 10, Cached: 200}},
		{ToolCalls: []scriptedmodel.ToolCall{call("call_2", "write_file", map[string]string{"file_path": hello, "content": "E2E-CONTENT\n"})},
			Usage: scriptedmodel.Usage{Prompt: 1200, Completion: 20, Cached: 300}},
		{ToolCalls: []scriptedmodel.ToolCall{call("call_3", "run_shell_command", map[string]string{"command": "touch " + marker, "description": "x"})},
			Usage: scriptedmodel.Usage{Prompt: 1300, Completion: 30, Cached: 400}},
		{Text: "E2E-DONE", Usage: scriptedmodel.Usage{Prompt: 1500, Completion: 5, Cached: 500}},
	}
	cmd := exec.Command(w.qwen, "--yolo", "-p", "E2E-PROMPT do the work")
	cmd.Env, cmd.Dir = w.env(), w.work
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := start(t, cmd)

	w.waitRequests(1, done)
	poll(t, "busy while the model works on the prompt", func() string {
		if s := w.status(); s == nil || s.Agent != qwen.Agent.ID || s.State != status.Busy || s.Model == nil || s.Model.ID != model {
			return describe(s)
		}
		return ""
	})
	w.model.Queue(replies[0])
	w.waitRequests(2, done)
	if _, err := os.Stat(filepath.Join(w.work, "ran.txt")); err != nil {
		t.Errorf("the shell call did not run: %v", err)
	}
	w.model.Queue(replies[1])
	w.waitRequests(3, done)
	poll(t, "the write is an output, both calls done", func() string {
		s := w.status()
		switch {
		case s == nil || s.State != status.Busy:
			return describe(s)
		case len(s.Outputs) != 1 || s.Outputs[0].Path != hello || s.Outputs[0].Action != status.Created:
			return fmt.Sprintf("outputs %+v", s.Outputs)
		case len(s.Recent) < 2 || s.Recent[0].Tool != "write_file" || s.Recent[1].Tool != "run_shell_command" || s.Recent[1].Outcome != status.OK:
			return fmt.Sprintf("recent %+v", s.Recent)
		}
		return ""
	})

	// The shell switched off while the model works: the request waits, and
	// the call's PreToolUse honours it at once.
	w.run("request", "tool", "run_shell_command", "off", "--session", w.status().Session)
	w.model.Queue(replies[2])
	w.waitRequests(4, done)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the switched-off shell call ran")
	}
	reason := "jig: tool run_shell_command is switched off for this session"
	if body := w.model.Requests()[3].Body; !bytes.Contains(body, []byte(reason)) {
		t.Errorf("the model was not told %q:\n%s", reason, body)
	}
	w.model.Queue(replies[3])
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatalf("qwen did not end:\n%s", out.Bytes())
	}

	s := w.status()
	if s == nil {
		t.Fatalf("no status file after the print run:\n%s", out.Bytes())
	}
	var want status.Usage
	for _, r := range replies {
		want.Input += int64(r.Usage.Prompt - r.Usage.Cached)
		want.CacheRead += int64(r.Usage.Cached)
		want.Output += int64(r.Usage.Completion)
	}
	switch {
	case s.State != status.Idle || s.Usage != want:
		t.Errorf("after the turn: state %s, usage %+v, want idle, %+v (cost null: no prices)", s.State, s.Usage, want)
	case s.Context.Tokens == nil || *s.Context.Tokens != 1500 || s.Context.Window == nil || *s.Context.Window <= 0 || s.Context.Percent == nil:
		t.Errorf("context %+v, want the last prompt's 1500 tokens of the window Stop said", s.Context)
	case s.Switches.Tools["run_shell_command"] || s.LastRequest == nil || !s.LastRequest.OK:
		t.Errorf("switches %+v, last request %+v", s.Switches, s.LastRequest)
	case len(s.Recent) < 3 || s.Recent[0].Tool != "run_shell_command" || s.Recent[0].Outcome != status.Error:
		t.Errorf("recent %+v, want the refused call an error", s.Recent)
	}
	noValues(t, w.state, "E2E-SHELL", "E2E-CONTENT", "E2E-PROMPT", "E2E-DONE", "marker-E2E")

	// Qwen's print mode fires no SessionEnd: its process gone, gc removes
	// what it left.
	w.run("session", "gc")
	if s := w.status(); s != nil {
		t.Errorf("gc left the file of a Qwen that ended: %s", describe(s))
	}
}

// start starts cmd in a process group of its own (Qwen's launcher runs
// Qwen as its child) and returns a channel closed when it ended; at the
// test's end the group is killed.
func start(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-done })
	return done
}

// noValues fails when a file under dir holds any of the values.
func noValues(t *testing.T, dir string, values ...string) {
	t.Helper()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, v := range values {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds %q", p, v)
			}
		}
		return nil
	})
}
