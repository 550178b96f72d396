package claude_test

import (
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

// model is the id the tests ask for, and modelName the display name Claude
// gives it.
const model, modelName = "claude-opus-5-5", "Opus 5.5"

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
	p.cmd = exec.Command(w.claude, append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
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

// served is what the scripted server told Claude it paid for, in the
// status file's terms.
func (w *world) served() status.Usage {
	u := w.model.Served()
	return status.Usage{Input: int64(u.Input), Output: int64(u.Output), CacheRead: int64(u.CacheRead), CacheWrite: int64(u.CacheCreation)}
}

// claudeTotals are Claude's own session totals in its --output-format json
// result: modelUsage summed over the models.
func claudeTotals(res map[string]any) status.Usage {
	var u status.Usage
	models, _ := res["modelUsage"].(map[string]any)
	for _, m := range models {
		m, _ := m.(map[string]any)
		n := func(k string) int64 { v, _ := m[k].(float64); return int64(v) }
		u.Input += n("inputTokens")
		u.Output += n("outputTokens")
		u.CacheRead += n("cacheReadInputTokens")
		u.CacheWrite += n("cacheCreationInputTokens")
	}
	return u
}

// checkStep checks the status file between two model calls: busy, the
// model (and its display name) and terminal known, the usage every reply
// the server sent (every request Claude paid for), no value anywhere in
// the state dir.
func (w *world) checkStep(step string, secrets ...string) *status.Status {
	w.t.Helper()
	s := w.status()
	if s.State != status.Busy || s.Model == nil || s.Model.ID != model || s.Model.Name != modelName || s.Terminal == nil || *s.Terminal != "%9" || s.Agent != status.AgentClaude {
		w.t.Errorf("%s: state %s, model %+v, terminal %v, agent %q; want busy, %s (%s), %%9, claude-code", step, s.State, s.Model, s.Terminal, s.Agent, model, modelName)
	}
	got, want := s.Usage, w.served()
	got.Cost = nil
	if got != want {
		w.t.Errorf("%s: usage %+v, the server sent %+v", step, got, want)
	}
	w.noValues(step, secrets...)
	return s
}

// calls are the status's recent calls as tool:action:outcome, newest first.
func calls(s *status.Status) string {
	var out []string
	for _, c := range s.Recent {
		out = append(out, c.Tool+":"+c.Action+":"+c.Outcome)
	}
	return strings.Join(out, " ")
}

// outputs are the status's outputs as action:name.
func outputs(s *status.Status) string {
	var out []string
	for _, o := range s.Outputs {
		out = append(out, o.Action+":"+filepath.Base(o.Path))
	}
	return strings.Join(out, " ")
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

// showUsage is the usage `jig claude show` reads from the session's
// transcripts, its cost included.
func (w *world) showUsage(sid string) status.Usage {
	w.t.Helper()
	var shown struct {
		Usage status.Usage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(w.jigRun("claude", "show", sid, "--json")), &shown); err != nil {
		w.t.Fatal(err)
	}
	return shown.Usage
}

// checkEnd checks a run's end: the file gone (SessionEnd), and `jig claude
// show`, Claude's own totals and cost, and what the server sent all agree.
func (w *world) checkEnd(run string, res map[string]any) {
	w.t.Helper()
	if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) != 0 {
		w.t.Errorf("%s: status files left after SessionEnd: %v", run, files)
	}
	sid, _ := res["session_id"].(string)
	shown, total := w.showUsage(sid), res["total_cost_usd"].(float64)
	if shown.Cost == nil || math.Abs(*shown.Cost-total) > 1e-9 || total == 0 {
		w.t.Errorf("%s: cost %v, Claude's total_cost_usd %v", run, shown.Cost, total)
	}
	shown.Cost = nil
	if claudes, sent := claudeTotals(res), w.served(); shown != claudes || claudes != sent {
		w.t.Errorf("%s: jig claude show %+v, Claude's totals %+v, the server sent %+v", run, shown, claudes, sent)
	}
}

// TestPrintSession drives one session through four `claude -p` runs, as
// few as the points need (Claude is slow to start), checking the status
// file between model calls against what the scripted server sent and each
// run's end against Claude's own --output-format json totals:
//
//  1. a file written, then edited, with a command beside the edit (each
//     call settled by its after-tool hook while the next request waits),
//     Bash switched off mid-run, a foreground subagent whose Bash call is
//     refused and whose Write counts, and a request taken at the last Stop
//     whose answer `jig request --wait` reads;
//  2. `/compact`: a request that writes no reply, in Claude's totals;
//  3. `/rename`: a side request (the name's), the same;
//  4. --continue: the context unknown until the next reply, the switches
//     kept, Bash still refused.
func TestPrintSession(t *testing.T) {
	w := newWorld(t)
	notes, sub := filepath.Join(w.work, "notes.txt"), filepath.Join(w.work, "sub.txt")
	ran1, ran2, ran3 := filepath.Join(w.marks, "ran1"), filepath.Join(w.marks, "ran2"), filepath.Join(w.marks, "ran3")
	secrets := []string{"E2E-CONTENT", "E2E-CMD", "E2E-PROMPT", "E2E-SUB", "E2E-OLD"}
	bash := func(id, cmd string) scriptedanthropic.ToolUse {
		in, _ := json.Marshal(map[string]string{"command": cmd, "description": "mark"})
		return scriptedanthropic.ToolUse{ID: id, Name: "Bash", Input: string(in)}
	}
	tool := func(id, name string, in map[string]any) scriptedanthropic.ToolUse {
		data, _ := json.Marshal(in)
		return scriptedanthropic.ToolUse{ID: id, Name: name, Input: string(data)}
	}
	step := func(n int, r scriptedanthropic.Reply) {
		t.Helper()
		w.model.Queue(r)
		w.waitRequests(n)
	}
	allowed := []string{"--allowedTools", "Write Edit Bash Agent"}

	// Run 1.
	run := w.startPrint("E2E-PROMPT write the notes, run the commands, ask a subagent", allowed...)
	w.waitRequests(1)
	step(2, scriptedanthropic.Reply{Text: "Writing.", ToolUses: []scriptedanthropic.ToolUse{
		tool("toolu_w", "Write", map[string]any{"file_path": notes, "content": "E2E-CONTENT-OLD"})},
		Usage: scriptedanthropic.Usage{Input: 1000, Output: 50, CacheRead: 200, CacheCreation: 300}})
	s := w.checkStep("after the write", secrets...)
	if got := calls(s); got != "Write:write:ok" || outputs(s) != "created:notes.txt" {
		t.Errorf("after the write: recent %s, outputs %s; want the Write settled, notes.txt created", got, outputs(s))
	}
	step(3, scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{
		tool("toolu_e", "Edit", map[string]any{"file_path": notes, "old_string": "E2E-CONTENT-OLD", "new_string": "E2E-CONTENT-NEW"}),
		bash("toolu_b1", "touch "+ran1+" # E2E-CMD-1")},
		Usage: scriptedanthropic.Usage{Input: 1200, Output: 40, CacheRead: 500}})
	s = w.checkStep("after the edit and the first command", secrets...)
	if got := calls(s); got != "Bash:run:ok Edit:edit:ok Write:write:ok" || outputs(s) != "created:notes.txt" {
		t.Errorf("after the edit: recent %s, outputs %s; want every call settled, notes.txt still created", got, outputs(s))
	}
	if _, err := os.Stat(ran1); err != nil {
		t.Fatalf("the first command did not run: %v", err)
	}
	// Bash off, mid-run; a foreground subagent (its own requests) follows.
	w.jigRun("request", "tool", "Bash", "off", "--terminal", "%9")
	step(4, scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{
		tool("toolu_a", "Agent", map[string]any{"description": "mark", "prompt": "E2E-SUB-PROMPT", "subagent_type": "general-purpose", "run_in_background": false})},
		Usage: scriptedanthropic.Usage{Input: 1300, Output: 30, CacheRead: 600}})
	step(5, scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{
		bash("toolu_s1", "touch "+ran2+" # E2E-CMD-2"),
		tool("toolu_s2", "Write", map[string]any{"file_path": sub, "content": "E2E-CONTENT-SUB"})},
		Usage: scriptedanthropic.Usage{Input: 5000, Output: 60, CacheRead: 10, CacheCreation: 20}})
	s = w.checkStep("in the subagent", secrets...)
	if got := calls(s); !strings.Contains(got, "Write:subagent:write:ok") || !strings.Contains(got, "Bash:subagent:run:") || !strings.Contains(got, "Agent::pending") {
		t.Errorf("in the subagent: recent %s; want its calls marked, the Agent call pending", got)
	}
	if got := outputs(s); got != "created:sub.txt created:notes.txt" {
		t.Errorf("in the subagent: outputs %s", got)
	}
	if _, err := os.Stat(ran2); err == nil {
		t.Error("the subagent's Bash ran although switched off")
	}
	if s.LastRequest == nil || !s.LastRequest.OK || s.Switches.Tools["Bash"] {
		t.Errorf("answer %+v, switches %v; want tool Bash off", s.LastRequest, s.Switches)
	}
	if body := string(w.model.Requests()[4].Body); !strings.Contains(body, "tool Bash is switched off for this session") {
		t.Error("the subagent's model was not told why Bash was refused")
	}
	step(6, scriptedanthropic.Reply{Text: "Sub done.", Usage: scriptedanthropic.Usage{Input: 5500, Output: 70, CacheRead: 30}})
	s = w.checkStep("after the subagent", secrets...)
	if got := calls(s); !strings.HasSuffix(got, "Agent::ok Bash:run:ok Edit:edit:ok Write:write:ok") ||
		!strings.Contains(got, "Write:subagent:write:ok") || !strings.Contains(got, "Bash:subagent:run:error") {
		t.Errorf("after the subagent: recent %s; want the subagent's calls newest, its Bash refused, the Agent call settled", got)
	}
	// A request sent now is taken at the run's last Stop: its waiter gets
	// the answer although the session ends right after.
	waiter := exec.Command(w.jig, "request", "tool", "Write", "off", "--session", s.Session, "--wait=30s")
	waiter.Env = w.env()
	var answer bytes.Buffer
	waiter.Stdout, waiter.Stderr = &answer, &answer
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "Done.", Usage: scriptedanthropic.Usage{Input: 1400, Output: 10, CacheRead: 700}})
	res := run.result(t)
	sid, _ := res["session_id"].(string)
	w.checkEnd("run 1", res)
	if err := waiter.Wait(); err != nil || !strings.Contains(answer.String(), "tool Write off") {
		t.Errorf("the request taken at the last Stop: %v, %q", err, answer.String())
	}
	w.noValues("after run 1", secrets...)

	// Run 2: /compact. Mid-run, the file has Claude's totals of run 1.
	run = w.startPrint("/compact", "--continue")
	w.waitRequests(7)
	w.checkStep("before the compaction's reply")
	w.model.Queue(scriptedanthropic.Reply{Text: "<summary>E2E-SUMMARY</summary>", Usage: scriptedanthropic.Usage{Input: 2000, Output: 100, CacheRead: 40}})
	w.checkEnd("run 2 (/compact)", run.result(t))

	// Run 3: /rename asks the model for a name: a side request.
	run = w.startPrint("/rename", "--continue")
	w.waitRequests(8)
	w.model.Queue(scriptedanthropic.Reply{Text: "e2e-session", Usage: scriptedanthropic.Usage{Input: 300, Output: 5}})
	w.checkEnd("run 3 (/rename)", run.result(t))

	// Run 4: the same session; the context what Claude recorded the
	// compaction left (its postTokens) until the next reply, Bash and
	// Write still off.
	run = w.startPrint("E2E-PROMPT once more", append([]string{"--continue"}, allowed...)...)
	w.waitRequests(9)
	s = w.checkStep("before run 4's first reply", secrets...)
	post, recorded := postTokens(*s.SessionFile)
	if s.Session != sid || !recorded || s.Context.Tokens == nil || *s.Context.Tokens != post || s.Switches.Tools["Bash"] || s.Switches.Tools["Write"] {
		t.Errorf("run 4: session %s context %v (Claude's postTokens %d, %v) switches %v; want %s, postTokens, Bash and Write off",
			s.Session, deref(s.Context.Tokens), post, recorded, s.Switches, sid)
	}
	step(10, scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{bash("toolu_b3", "touch "+ran3+" # E2E-CMD-3")},
		Usage: scriptedanthropic.Usage{Input: 1500, Output: 20, CacheRead: 6}})
	s = w.checkStep("after run 4's refused command", secrets...)
	// no hook ran since the refusal: jig's own PreToolUse recorded it
	if got := calls(s); !strings.HasPrefix(got, "Bash:run:error") {
		t.Errorf("run 4: recent %s; want the refused Bash error at once, not pending", got)
	}
	if s.Context.Tokens == nil || *s.Context.Tokens != 1506 {
		t.Errorf("run 4: context %+v, want the reply's 1506", s.Context)
	}
	if _, err := os.Stat(ran3); err == nil {
		t.Error("Bash ran in the continued session although switched off")
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "Done again.", Usage: scriptedanthropic.Usage{Input: 1600, Output: 5}})
	w.checkEnd("run 4", run.result(t))
	w.noValues("at the end", secrets...)
}
