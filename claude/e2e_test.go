package claude_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedanthropic"
	"jig/internal/testsrc"
	"jig/status"
)

// The end-to-end tests drive the real Claude Code (the version
// .ci/provision installs) against a scripted Anthropic Messages server on
// 127.0.0.1, with jig's hooks and statusLine put in its settings by
// `jig install claude`, and look at the status file they keep. Without the
// provisioned Claude they skip loudly; in CI (CI=true) they fail.

const waitLimit = 60 * time.Second

const model = "claude-opus-5-5"

func TestMain(m *testing.M) {
	if spec := os.Getenv(holdLockEnv); spec != "" {
		holdLock(spec)
		return
	}
	testsrc.Main(m)
}

func buildJig(t *testing.T) string { return testsrc.Jig(t) }

// world is one isolated Claude setup: its home, project, state dir and
// scripted model.
type world struct {
	t                        *testing.T
	claude, jig              string
	home, work, state, marks string
	model                    *scriptedanthropic.Server
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, claude: pitest.Claude(t), jig: buildJig(t)}
	root := t.TempDir()
	w.home, w.work, w.state, w.marks = filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "state"), filepath.Join(root, "marks")
	for _, d := range []string{w.home, w.work, w.marks} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m, err := scriptedanthropic.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w.model = m
	install := exec.Command(w.jig, "install", "claude")
	install.Env = w.env()
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("jig install claude: %v\n%s", err, out)
	}
	return w
}

// env is the environment Claude runs with: only loopback, a fake tmux pane
// unless told otherwise, and jig found through JIG_BIN.
func (w *world) env(extra ...string) []string {
	return append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home,
		"ANTHROPIC_BASE_URL=" + w.model.URL,
		"ANTHROPIC_API_KEY=sk-ant-scripted-0123456789abcdefghij",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"JIG_BIN=" + w.jig,
		"JIG_STATE_DIR=" + w.state,
		"TMUX=/tmp/tmux-e2e/default,1,0",
		"TMUX_PANE=%9",
		"TERM=dumb",
	}, extra...)
}

// printRun is a running `claude -p`.
type printRun struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan error
}

func (w *world) startPrint(prompt string, args ...string) *printRun {
	w.t.Helper()
	p := &printRun{done: make(chan error, 1)}
	p.cmd = exec.Command(w.claude, append([]string{"-p", prompt, "--output-format", "json", "--allowedTools", "Write Bash"}, args...)...)
	p.cmd.Dir, p.cmd.Env, p.cmd.Stdout = w.work, w.env(), &p.out
	p.cmd.Stderr = os.Stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	w.t.Cleanup(func() { syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) })
	return p
}

// result waits for the run to end and returns Claude's JSON result.
func (p *printRun) result(t *testing.T) map[string]any {
	t.Helper()
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("claude -p: %v\n%s", err, p.out.String())
		}
	case <-time.After(waitLimit):
		t.Fatal("claude -p did not end")
	}
	var res map[string]any
	if err := json.Unmarshal(p.out.Bytes(), &res); err != nil {
		t.Fatalf("claude -p printed no JSON result: %v\n%s", err, p.out.String())
	}
	return res
}

func (w *world) waitRequests(n int) {
	w.t.Helper()
	if !w.model.WaitRequests(n, waitLimit) {
		w.t.Fatalf("the model got %d requests, want %d", len(w.model.Requests()), n)
	}
}

// status reads the one session's status file.
func (w *world) status() *status.Status {
	w.t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
	if len(files) != 1 {
		w.t.Fatalf("%d status files, want 1: %v", len(files), files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		w.t.Fatal(err)
	}
	s, err := status.Decode(data)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// dedupSums are the transcript's token sums, each message id counted once,
// worked out here apart from jig's reader.
func dedupSums(t *testing.T, file string) status.Usage {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var u status.Usage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e struct {
			Type    string
			Message struct {
				ID    string
				Usage struct {
					Input      int64 `json:"input_tokens"`
					Output     int64 `json:"output_tokens"`
					CacheRead  int64 `json:"cache_read_input_tokens"`
					CacheWrite int64 `json:"cache_creation_input_tokens"`
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type != "assistant" || seen[e.Message.ID] {
			continue
		}
		seen[e.Message.ID] = true
		u.Input += e.Message.Usage.Input
		u.Output += e.Message.Usage.Output
		u.CacheRead += e.Message.Usage.CacheRead
		u.CacheWrite += e.Message.Usage.CacheWrite
	}
	return u
}

// checkStep checks the status file between two model calls: busy, the
// model and terminal known, usage the transcript's, no value anywhere in
// the state dir.
func (w *world) checkStep(step string, secrets ...string) *status.Status {
	w.t.Helper()
	s := w.status()
	if s.State != status.Busy || s.Model == nil || s.Model.ID != model || s.Terminal == nil || *s.Terminal != "%9" || s.Agent != status.AgentClaude {
		w.t.Errorf("%s: state %s, model %+v, terminal %v, agent %q; want busy, %s, %%9, claude-code", step, s.State, s.Model, s.Terminal, s.Agent, model)
	}
	got, want := s.Usage, dedupSums(w.t, *s.SessionFile)
	got.Cost = nil
	if got != want {
		w.t.Errorf("%s: usage %+v, the transcript's deduplicated sums %+v", step, got, want)
	}
	w.noValues(step, secrets...)
	return s
}

// noValues greps every file in the state dir for the run's argument values.
func (w *world) noValues(step string, secrets ...string) {
	w.t.Helper()
	filepath.WalkDir(w.state, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, v := range secrets {
			if bytes.Contains(data, []byte(v)) {
				w.t.Errorf("%s: %s holds the value %q", step, p, v)
			}
		}
		return nil
	})
}

func (w *world) jigRun(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.jig, args...)
	cmd.Env = w.env()
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("jig %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestPrintMode runs `claude -p` that writes a file and runs commands, step
// by step, and switches Bash off mid-run; then `claude --continue` of the
// same session, where Bash stays off.
func TestPrintMode(t *testing.T) {
	w := newWorld(t)
	notes := filepath.Join(w.work, "notes.txt")
	const content = "E2E-CONTENT-7d1f"
	ran1, ran2, ran3 := filepath.Join(w.marks, "ran1"), filepath.Join(w.marks, "ran2"), filepath.Join(w.marks, "ran3")
	cmd1 := "touch " + ran1 + " # E2E-CMD-1"
	cmd2 := "touch " + ran2 + " # E2E-CMD-2"
	secrets := []string{content, "E2E-CMD-1", "E2E-CMD-2", "E2E-PROMPT"}
	bash := func(id, cmd string) scriptedanthropic.ToolUse {
		in, _ := json.Marshal(map[string]string{"command": cmd, "description": "mark"})
		return scriptedanthropic.ToolUse{ID: id, Name: "Bash", Input: string(in)}
	}
	write, _ := json.Marshal(map[string]string{"file_path": notes, "content": content})

	run := w.startPrint("E2E-PROMPT write the notes, then run the commands")
	// step 1: the model writes the file
	w.waitRequests(1)
	w.model.Queue(scriptedanthropic.Reply{Text: "Writing.", ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_w", Name: "Write", Input: string(write)}},
		Usage: scriptedanthropic.Usage{Input: 1000, Output: 50, CacheRead: 200, CacheCreation: 300}})
	w.waitRequests(2)
	s := w.checkStep("after the write", secrets...)
	if len(s.Outputs) != 1 || s.Outputs[0].Path != notes || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v, want %s created", s.Outputs, notes)
	}
	// step 2: a command runs
	w.model.Queue(scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{bash("toolu_b1", cmd1)},
		Usage: scriptedanthropic.Usage{Input: 1200, Output: 40, CacheRead: 500}})
	w.waitRequests(3)
	w.checkStep("after the first command", secrets...)
	if _, err := os.Stat(ran1); err != nil {
		t.Fatalf("the first command did not run: %v", err)
	}
	// Bash off, mid-run: from the next request on, every Bash call is refused
	w.jigRun("request", "tool", "Bash", "off", "--terminal", "%9")
	w.model.Queue(scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{bash("toolu_b2", cmd2)},
		Usage: scriptedanthropic.Usage{Input: 1300, Output: 30, CacheRead: 600}})
	w.waitRequests(4)
	s = w.checkStep("after the refused command", secrets...)
	if _, err := os.Stat(ran2); err == nil {
		t.Error("Bash ran although switched off")
	}
	if s.LastRequest == nil || !s.LastRequest.OK || !strings.Contains(s.LastRequest.Message, "tool Bash off") || s.Switches.Tools["Bash"] {
		t.Errorf("answer %+v, switches %v; want tool Bash off", s.LastRequest, s.Switches)
	}
	if body := string(w.model.Requests()[3].Body); !strings.Contains(body, "tool Bash is switched off for this session") {
		t.Error("the model was not told why Bash was refused")
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "Done.", Usage: scriptedanthropic.Usage{Input: 1400, Output: 10, CacheRead: 700}})
	res := run.result(t)
	sid, _ := res["session_id"].(string)
	// SessionEnd removed the file
	if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) != 0 {
		t.Errorf("status files left after SessionEnd: %v", files)
	}
	// cost: Claude's own total, as jig reads it from the transcript
	var shown struct {
		Usage status.Usage `json:"usage"`
	}
	json.Unmarshal([]byte(w.jigRun("claude", "show", sid, "--json")), &shown)
	total, _ := res["total_cost_usd"].(float64)
	if shown.Usage.Cost == nil || math.Abs(*shown.Usage.Cost-total) > 1e-9 || total == 0 {
		t.Errorf("cost %v, Claude's total_cost_usd %v", shown.Usage.Cost, total)
	}
	w.noValues("after the run", secrets...)

	// claude --continue: the same session, Bash still off
	run = w.startPrint("E2E-PROMPT once more", "--continue")
	w.waitRequests(5)
	w.model.Queue(scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{bash("toolu_b3", "touch "+ran3+" # E2E-CMD-2")},
		Usage: scriptedanthropic.Usage{Input: 1500, Output: 20}})
	w.waitRequests(6)
	s = w.checkStep("after --continue's command", secrets...)
	if s.Session != sid || s.Switches.Tools["Bash"] {
		t.Errorf("session %s switches %v; want %s with Bash off", s.Session, s.Switches, sid)
	}
	if _, err := os.Stat(ran3); err == nil {
		t.Error("Bash ran in the continued session although switched off")
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "Done again.", Usage: scriptedanthropic.Usage{Input: 1600, Output: 5}})
	res = run.result(t)
	json.Unmarshal([]byte(w.jigRun("claude", "show", sid, "--json")), &shown)
	if total, _ := res["total_cost_usd"].(float64); shown.Usage.Cost == nil || math.Abs(*shown.Usage.Cost-total) > 1e-9 {
		t.Errorf("after --continue: cost %v, Claude's total_cost_usd %v", shown.Usage.Cost, total)
	}
}
