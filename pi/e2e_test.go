package pi_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedmodel"
	"jig/internal/testsrc"
	"jig/status"
)

// The end-to-end tests drive the real Pi (both supported versions) in RPC
// mode against a scripted model, with jig's extension installed by
// `jig install pi`, and look at the status file the bridge keeps. They need
// what .ci/provision installs; locally they skip loudly without it, in CI
// (CI=true) they fail (internal/pitest).

var piVersions = pitest.Versions

const waitLimit = 30 * time.Second

func TestMain(m *testing.M) { testsrc.Main(m) }

// buildJig is jig, built once for all the end-to-end tests; the extension's
// TypeScript is an input too.
func buildJig(t *testing.T) string { return testsrc.Jig(t, ".ts") }

// world is one isolated Pi setup: its home, agent dir, project, state dir
// and scripted model.
type world struct {
	t                        *testing.T
	version, piBin, nodeBin  string
	jig                      string
	home, agent, work, state string
	skill                    string // a skill's SKILL.md, loaded with --skill
	decider                  string // an extension announcing jig:decision events
	model                    *scriptedmodel.Server
}

func newWorld(t *testing.T, version string) *world {
	piBin, nodeBin := pitest.Pi(t, version)
	w := &world{t: t, version: version, piBin: piBin, nodeBin: nodeBin, jig: buildJig(t)}
	root := t.TempDir()
	w.home, w.agent, w.work, w.state = filepath.Join(root, "home"), filepath.Join(root, "agent"), filepath.Join(root, "project"), filepath.Join(root, "state")
	for _, d := range []string{w.home, w.agent, w.work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m, err := scriptedmodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w.model = m
	w.writeJSON(filepath.Join(w.agent, "models.json"), map[string]any{
		"providers": map[string]any{
			"scripted": map[string]any{
				"baseUrl": m.URL, "api": "openai-completions", "apiKey": "scripted-key",
				"models": []any{map[string]any{
					"id": "mock-model", "name": "Mock Model", "contextWindow": 64000, "maxTokens": 4096,
					"reasoning": false, "input": []string{"text"},
					"cost": map[string]any{"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
				}, map[string]any{
					"id": "mock-reasoner", "name": "Mock Reasoner", "contextWindow": 128000, "maxTokens": 8192,
					"reasoning": true, "input": []string{"text"},
					"cost": map[string]any{"input": 1, "output": 5, "cacheRead": 0.1, "cacheWrite": 1.25},
				}},
			},
		},
	})
	w.skill = filepath.Join(root, "skills", "demo-notes", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(w.skill), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.skill, []byte("---\nname: demo-notes\ndescription: Keeps the project's notes tidy.\n---\n# Demo notes\nWrite notes in notes.txt.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A stand-in for jig-core: it announces a decision on every call.
	w.decider = filepath.Join(root, "decider.ts")
	if err := os.WriteFile(w.decider, []byte(`export default function (pi: any) {
	pi.on("tool_call", (e: any) => {
		pi.events.emit("jig:decision", { toolCallId: e.toolCallId, decision: "allow",
			answer: e.toolName === "bash" ? "allowed by rule 3" : undefined });
	});
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	w.writeJSON(filepath.Join(w.agent, "settings.json"), map[string]any{
		"retry": map[string]any{"maxRetries": 0, "baseDelayMs": 100, "provider": map[string]any{"maxRetries": 0}},
	})
	// The extension goes in the way a user puts it there.
	install := exec.Command(w.jig, "install", "pi")
	install.Env = w.env()
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("jig install pi: %v\n%s", err, out)
	}
	return w
}

func (w *world) writeJSON(path string, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// env is the environment Pi runs with: nothing of the machine's but what
// it needs, a fake tmux pane, and jig found through JIG_BIN.
func (w *world) env(extra ...string) []string {
	return append([]string{
		"PATH=" + w.nodeBin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.home,
		"PI_CODING_AGENT_DIR=" + w.agent,
		"PI_OFFLINE=1",
		"PI_SKIP_VERSION_CHECK=1",
		"JIG_BIN=" + w.jig,
		"JIG_STATE_DIR=" + w.state,
		"TMUX=/tmp/tmux-e2e/default,1,0",
		"TMUX_PANE=%9",
		"TERM=dumb",
	}, extra...)
}

// piProc is a running Pi in RPC mode.
type piProc struct {
	w      *world
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan map[string]any
	exited chan struct{}
	mu     sync.Mutex
	log    []string
}

func (w *world) startPi(extraEnv ...string) *piProc {
	w.t.Helper()
	return w.startPiArgs(nil, extraEnv...)
}

// startPiArgs starts Pi with more arguments (--session FILE to resume).
func (w *world) startPiArgs(args []string, extraEnv ...string) *piProc {
	w.t.Helper()
	cmd := exec.Command(w.piBin, append([]string{"--provider", "scripted", "--model", "mock-model", "--offline",
		"--no-skills", "--skill", w.skill, "-e", w.decider, "--no-prompt-templates", "--no-themes", "--mode", "rpc"},
		args...)...)
	cmd.Dir = w.work
	cmd.Env = w.env(extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	p := &piProc{w: w, cmd: cmd, stdin: stdin, events: make(chan map[string]any, 1000), exited: make(chan struct{})}
	cmd.Stderr = &logWriter{p: p, prefix: "stderr: "}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-p.exited
		if w.t.Failed() {
			p.mu.Lock()
			log := p.log
			if len(log) > 40 {
				log = log[len(log)-40:]
			}
			w.t.Logf("pi %s (pid %d), its last output:\n%s", w.version, cmd.Process.Pid, strings.Join(log, "\n"))
			p.mu.Unlock()
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"message_update"`) || strings.Contains(line, `"tool_execution_update"`) {
				continue // streaming deltas: nothing waits for them
			}
			p.record(line)
			var ev map[string]any
			if json.Unmarshal([]byte(line), &ev) == nil {
				select {
				case p.events <- ev:
				default:
					p.record("(test: event dropped, the queue is full)")
				}
			}
		}
		cmd.Wait()
		close(p.exited)
	}()
	return p
}

type logWriter struct {
	p      *piProc
	prefix string
}

func (l *logWriter) Write(b []byte) (int, error) {
	l.p.record(l.prefix + strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func (p *piProc) record(line string) {
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	p.mu.Lock()
	p.log = append(p.log, line)
	p.mu.Unlock()
}

// output is what Pi printed so far, one line each.
func (p *piProc) output() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.log...)
}

// bridgePid is the pid of the jig bridge Pi runs now, 0 when none.
func (p *piProc) bridgePid() int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(data)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open || s[open+1:close] != "jig" {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) > 1 && fields[1] == fmt.Sprint(p.cmd.Process.Pid) && fields[0] != "Z" {
			var pid int
			fmt.Sscan(filepath.Base(filepath.Dir(f)), &pid)
			return pid
		}
	}
	return 0
}

// send writes one RPC command.
func (p *piProc) send(cmd map[string]any) {
	p.w.t.Helper()
	data, _ := json.Marshal(cmd)
	if _, err := p.stdin.Write(append(data, '\n')); err != nil {
		p.w.t.Fatalf("rpc %v: %v", cmd["type"], err)
	}
}

// waitEvent waits for an event for which match holds.
func (p *piProc) waitEvent(what string, match func(map[string]any) bool) map[string]any {
	p.w.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case ev := <-p.events:
			if match(ev) {
				return ev
			}
		case <-p.exited:
			p.w.t.Fatalf("pi %s exited while waiting for %s", p.w.version, what)
		case <-deadline:
			p.w.t.Fatalf("pi %s: no %s within %v", p.w.version, what, waitLimit)
		}
	}
}

// call sends an RPC command and returns its response's data.
func (p *piProc) call(cmd map[string]any) map[string]any {
	p.w.t.Helper()
	id := fmt.Sprintf("req-%d", time.Now().UnixNano())
	cmd["id"] = id
	p.send(cmd)
	ev := p.waitEvent("response to "+cmd["type"].(string), func(ev map[string]any) bool {
		return ev["type"] == "response" && ev["id"] == id
	})
	if ev["success"] != true {
		p.w.t.Fatalf("rpc %v failed: %v", cmd["type"], ev["error"])
	}
	data, _ := ev["data"].(map[string]any)
	return data
}

// prompt sends a prompt and waits until the agent has ended its run.
func (p *piProc) prompt(text string) {
	p.w.t.Helper()
	p.call(map[string]any{"type": "prompt", "message": text})
	p.waitEvent("agent_end", func(ev map[string]any) bool { return ev["type"] == "agent_end" })
}

func (p *piProc) sessionID() string {
	p.w.t.Helper()
	id, _ := p.call(map[string]any{"type": "get_state"})["sessionId"].(string)
	if id == "" {
		p.w.t.Fatal("get_state: no sessionId")
	}
	return id
}

// quit ends Pi the way a user does (its input closes) and waits for it.
func (p *piProc) quit() {
	p.w.t.Helper()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(waitLimit):
		p.w.t.Fatalf("pi %s did not exit after its input closed", p.w.version)
	}
}

// request runs `jig request KIND NAME on|off --session ID --wait`, as a
// reader does.
func (w *world) request(session string, args ...string) {
	w.t.Helper()
	req := exec.Command(w.jig, append(append([]string{"request"}, args...), "--session", session, "--wait")...)
	req.Env = w.env()
	if out, err := req.CombinedOutput(); err != nil {
		w.t.Fatalf("jig request %s --wait: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// statusPath is a session's status file.
func (w *world) statusPath(session string) string {
	return filepath.Join(w.state, "sessions", status.SafeName(session)+".json")
}

// waitStatus polls a session's status file until ok holds; it returns the
// file's bytes and status.
func (w *world) waitStatus(session, what string, ok func(*status.Status) bool) ([]byte, *status.Status) {
	w.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var last []byte
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(w.statusPath(session))
		if err == nil {
			last = data
			if s, err := status.Decode(data); err == nil && ok(s) {
				return data, s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatalf("pi %s: status file never showed %s; last:\n%s", w.version, what, last)
	return nil, nil
}

// waitGone polls until a file is gone.
func (w *world) waitGone(path, what string) {
	w.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatalf("pi %s: %s still there after %v", w.version, what, waitLimit)
}

func toolCall(id, name string, args map[string]any) scriptedmodel.Reply {
	data, _ := json.Marshal(args)
	return scriptedmodel.Reply{
		ToolCalls: []scriptedmodel.ToolCall{{ID: id, Name: name, Args: string(data)}},
		Usage:     scriptedmodel.Usage{Prompt: 1200, Completion: 40, Cached: 1000},
	}
}

func text(s string) scriptedmodel.Reply {
	return scriptedmodel.Reply{Text: s, Usage: scriptedmodel.Usage{Prompt: 1500, Completion: 12, Cached: 1024}}
}

// Values that appear only as tool arguments; none may reach the status file.
var secrets = []string{"s3cret-content-value", "alpha-old-text", "beta-new-text", "echo-top-secret-arg", "no-such-text-anywhere"}

func TestPiEndToEnd(t *testing.T) {
	for _, v := range piVersions {
		t.Run("pi-"+v, func(t *testing.T) {
			t.Parallel()
			testSession(t, v)
		})
	}
}

func testSession(t *testing.T, version string) {
	w := newWorld(t, version)
	// A context file Pi puts in the system prompt.
	if err := os.WriteFile(filepath.Join(w.work, "AGENTS.md"), []byte("# Project rules\nKeep notes short.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(w.work, "notes.txt")
	if err := os.WriteFile(notes, []byte("first line alpha-old-text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.startPi()
	id := p.sessionID()
	w.waitStatus(id, "the session at start", func(s *status.Status) bool { return s.Model != nil })

	// One turn through read, write (a new file), edit (an existing one),
	// bash and a failing edit.
	w.model.Queue(toolCall("call_read", "read", map[string]any{"path": "notes.txt"}))
	p.call(map[string]any{"type": "prompt", "message": "work on the notes"})
	if !w.model.WaitRequests(2, p.exited) {
		t.Fatal("pi never asked the model a second time")
	}
	// Mid-turn: Pi waits on the model.
	_, mid := w.waitStatus(id, "busy mid-turn", func(s *status.Status) bool { return s.State == status.Busy })
	if mid.Model == nil || mid.Model.ID != "mock-model" || mid.Model.Name != "Mock Model" || mid.Model.Provider != "scripted" {
		t.Errorf("model %+v, want scripted/mock-model named Mock Model", mid.Model)
	}
	if mid.Context.Window == nil || *mid.Context.Window != 64000 {
		t.Errorf("context window %v, want 64000", mid.Context.Window)
	}
	if mid.Tools.Active != 4 || mid.Tools.Total < 4 {
		t.Errorf("tools %+v, want 4 active of at least 4", mid.Tools)
	}
	if mid.Terminal == nil || *mid.Terminal != "%9" || mid.TerminalFrom == nil || *mid.TerminalFrom != "TMUX_PANE" {
		t.Errorf("terminal %v from %v, want %%9 from TMUX_PANE", mid.Terminal, mid.TerminalFrom)
	}
	if mid.AgentDir != w.agent {
		t.Errorf("agentDir %q, want %s", mid.AgentDir, w.agent)
	}
	if mid.PID != p.cmd.Process.Pid {
		t.Errorf("pid %d, want Pi's %d", mid.PID, p.cmd.Process.Pid)
	}
	w.model.Queue(
		toolCall("call_write", "write", map[string]any{"path": "new.txt", "content": "s3cret-content-value\n"}),
		toolCall("call_edit", "edit", map[string]any{"path": "notes.txt", "edits": []any{map[string]any{"oldText": "alpha-old-text", "newText": "beta-new-text"}}}),
		toolCall("call_bash", "bash", map[string]any{"command": "echo echo-top-secret-arg child-of=$JIG_PARENT_SESSION"}),
		toolCall("call_bad", "edit", map[string]any{"path": "notes.txt", "edits": []any{map[string]any{"oldText": "no-such-text-anywhere", "newText": "x"}}}),
		text("done"),
	)
	p.waitEvent("agent_end", func(ev map[string]any) bool { return ev["type"] == "agent_end" })
	data, after := w.waitStatus(id, "idle after the turn", func(s *status.Status) bool {
		return s.State == status.Idle && len(s.Recent) == 5 && s.Recent[0].Outcome != status.Pending
	})
	if os.Getenv("JIG_E2E_DUMP") != "" {
		t.Logf("status after the turn:\n%s", data)
	}
	for _, secret := range secrets {
		if strings.Contains(string(data), secret) {
			t.Errorf("the status file holds the argument value %q:\n%s", secret, data)
		}
	}
	var tools []string
	for _, c := range after.Recent {
		tools = append(tools, c.Tool+":"+c.Outcome)
	}
	if got, want := strings.Join(tools, " "), "edit:error bash:ok edit:ok write:ok read:ok"; got != want {
		t.Errorf("recent %s, want %s (newest first)", got, want)
	}
	// What the agent runs is marked as its child (and so would be a Pi it starts).
	if bashed := string(w.model.Requests()[4].Body); !strings.Contains(bashed, "echo-top-secret-arg child-of="+id) {
		t.Errorf("the bash tool did not see JIG_PARENT_SESSION=%s; the model got:\n%.3000s", id, bashed)
	}
	for _, c := range after.Recent {
		if c.Decision != "allow" || (c.Tool == "bash") != (c.Answer == "allowed by rule 3") {
			t.Errorf("recent call %+v: want the decision announced on jig:decision", c)
		}
	}
	outs := map[string]string{}
	for _, o := range after.Outputs {
		outs[o.Path] = o.Action
	}
	if outs[filepath.Join(w.work, "new.txt")] != status.Created || outs[notes] != status.Changed || len(outs) != 2 {
		t.Errorf("outputs %+v, want new.txt created and notes.txt changed", after.Outputs)
	}
	// What fills the context now, as Pi counts it (ctx.getContextUsage()).
	if c := after.Context; c.Tokens == nil || *c.Tokens <= 0 || c.Percent == nil ||
		*c.Percent < float64(*c.Tokens)*100/64000-0.01 || *c.Percent > float64(*c.Tokens)*100/64000+0.01 {
		t.Errorf("context %+v, want tokens and percent of the 64000 window", c)
	}
	if after.SessionFile == nil || !strings.HasSuffix(*after.SessionFile, ".jsonl") {
		t.Errorf("sessionFile %v, want Pi's .jsonl", after.SessionFile)
	}
	w.waitUsage(id)
	if d := after.ContextDetail; d == nil || len(d.Parts) == 0 || d.Tokens == 0 || len(d.Files) != 1 ||
		d.Files[0].Name != filepath.Join(w.work, "AGENTS.md") || d.Files[0].Tokens == 0 {
		t.Errorf("contextDetail %+v, want parts and the project's AGENTS.md", after.ContextDetail)
	}

	// Another turn of 12 calls: recent keeps the newest 15.
	for i := 0; i < 12; i++ {
		w.model.Queue(toolCall(fmt.Sprintf("call_more_%d", i), "read", map[string]any{"path": "new.txt"}))
	}
	w.model.Queue(text("read them all"))
	p.prompt("read more")
	_, more := w.waitStatus(id, "idle after 17 calls", func(s *status.Status) bool {
		return s.State == status.Idle && len(s.Recent) == status.MaxRecent && s.Recent[0].Outcome == status.OK
	})
	for i, c := range more.Recent {
		if c.Tool != "read" && i < 12 || i > 0 && c.At.After(more.Recent[i-1].At) {
			t.Errorf("recent[%d] = %+v: want the 12 reads first, newest first", i, c)
		}
	}
	if more.Recent[12].Tool != "edit" || more.Recent[12].Outcome != status.Error {
		t.Errorf("recent[12] = %+v, want the failing edit", more.Recent[12])
	}
	w.waitUsage(id)

	// A reader turns bash off; the model is no longer offered it.
	w.request(id, "tool", "bash", "off")
	_, switched := w.waitStatus(id, "the answer", func(s *status.Status) bool { return s.LastRequest != nil })
	if !switched.LastRequest.OK || switched.Switches.Tools["bash"] != false || switched.Tools.Active != 3 {
		t.Errorf("after bash off: lastRequest %+v, switches %+v, tools %+v", switched.LastRequest, switched.Switches, switched.Tools)
	}
	// A tool Pi does not have is named in the answer, which is not ok.
	bad := exec.Command(w.jig, "request", "tool", "teleport", "on", "--session", id, "--wait")
	bad.Env = w.env()
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), "teleport") {
		t.Errorf("jig request tool teleport on: %v, %s; want not ok, naming teleport", err, out)
	}
	if _, s := w.waitStatus(id, "the refusal", func(s *status.Status) bool {
		return s.LastRequest != nil && !s.LastRequest.OK
	}); s.Tools.Active != 3 || s.Switches.Tools["bash"] {
		t.Errorf("a refused request changed the tools: %+v, switches %+v", s.Tools, s.Switches)
	}

	n := len(w.model.Requests())
	w.model.Queue(text("no bash here"))
	p.prompt("and now?")
	offered := w.model.Requests()[n].Tools
	if strings.Contains(","+strings.Join(offered, ",")+",", ",bash,") {
		t.Errorf("after bash off, the model was still offered %v", offered)
	}

	// A skill turned off leaves the skills list from the next prompt, and
	// /skill:NAME is refused.
	if !strings.Contains(string(w.model.Requests()[0].Body), "<name>demo-notes</name>") {
		t.Fatalf("the skill was never offered; first request:\n%.2000s", w.model.Requests()[0].Body)
	}
	w.request(id, "skill", "demo-notes", "off")
	p.call(map[string]any{"type": "prompt", "message": "/skill:demo-notes"})
	n = len(w.model.Requests())
	w.model.Queue(text("no skill here"))
	p.prompt("and the skill?")
	reqs := w.model.Requests()
	if len(reqs) != n+1 {
		t.Errorf("/skill:demo-notes reached the model while off (%d requests, want %d)", len(reqs), n+1)
	}
	if strings.Contains(string(reqs[len(reqs)-1].Body), "<name>demo-notes</name>") {
		t.Error("the skill turned off is still in the system prompt")
	}

	// A reload keeps the file and the switch.
	p.call(map[string]any{"type": "prompt", "message": "/session-reload"})
	_, reloaded := w.waitStatus(id, "the session after a reload", func(s *status.Status) bool { return s.Tools.Active == 3 })
	if !reloaded.StartedAt.Equal(after.StartedAt) {
		t.Errorf("a reload restarted the session: startedAt %v, was %v", reloaded.StartedAt, after.StartedAt)
	}
	for _, o := range reloaded.Outputs {
		if o.Action != outs[o.Path] {
			t.Errorf("after a reload, output %s is %s, was %s", o.Path, o.Action, outs[o.Path])
		}
	}
	n = len(w.model.Requests())
	w.model.Queue(text("still no bash"))
	p.prompt("after the reload?")
	if offered := w.model.Requests()[n].Tools; strings.Contains(","+strings.Join(offered, ",")+",", ",bash,") {
		t.Errorf("after a reload, the model was offered %v again", offered)
	}

	// /session-file says where the file is and the terminal it names.
	p.send(map[string]any{"type": "prompt", "message": "/session-file"}) // the notice comes before the response
	where := p.waitEvent("the /session-file notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	if msg, _ := where["message"].(string); !strings.Contains(msg, w.statusPath(id)) || !strings.Contains(msg, "terminal: %9") {
		t.Errorf("/session-file said %q, want %s and terminal %%9", msg, w.statusPath(id))
	}

	// /context draws the contextDetail the bridge computed (jig session context).
	p.send(map[string]any{"type": "prompt", "message": "/context"})
	grid := p.waitEvent("the /context notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	msg, _ := grid["message"].(string)
	for _, want := range []string{"/ 64k tokens", "system", "tools", "toolResults", "builtin", "demo-notes"} {
		if !strings.Contains(msg, want) {
			t.Errorf("/context lacks %q:\n%s", want, msg)
		}
	}

	// A reader asks for a reload: 1.x runs it once idle (a new bridge takes
	// over); 0.x cannot, and the answer says so.
	before := p.bridgePid()
	req := exec.Command(w.jig, "request", "reload", "--session", id, "--wait")
	req.Env = w.env()
	out, err := req.CombinedOutput()
	_, answered := w.waitStatus(id, "the reload answer", func(s *status.Status) bool {
		return s.LastRequest != nil && s.LastRequest.Reload != nil
	})
	if strings.HasPrefix(version, "0.") {
		if err == nil || answered.LastRequest.OK || !strings.Contains(answered.LastRequest.Message, "/session-reload") {
			t.Errorf("0.x reload request: %v %s, answer %+v; want not ok, pointing at /session-reload", err, out, answered.LastRequest)
		}
	} else {
		if err != nil || !answered.LastRequest.OK {
			t.Errorf("reload request: %v %s, answer %+v", err, out, answered.LastRequest)
		}
		deadline := time.Now().Add(waitLimit)
		for p.bridgePid() == before || p.bridgePid() == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("no reload: the bridge is still %d", before)
			}
			time.Sleep(20 * time.Millisecond)
		}
		w.waitStatus(id, "the session after the requested reload", func(s *status.Status) bool { return s.Tools.Active == 3 })
	}

	// A model and a thinking change show at once.
	p.call(map[string]any{"type": "set_model", "provider": "scripted", "modelId": "mock-reasoner"})
	w.waitStatus(id, "the new model and its window", func(s *status.Status) bool {
		return s.Model != nil && s.Model.ID == "mock-reasoner" && s.Model.Name == "Mock Reasoner" &&
			s.Context.Window != nil && *s.Context.Window == 128000
	})
	p.call(map[string]any{"type": "set_thinking_level", "level": "high"})
	w.waitStatus(id, "thinking high", func(s *status.Status) bool { return s.Thinking != nil && *s.Thinking == "high" })
	w.model.Queue(scriptedmodel.Reply{Reasoning: "thinking it over", Text: "thought",
		Usage: scriptedmodel.Usage{Prompt: 900, Completion: 30, Cached: 0}})
	p.prompt("think")
	w.waitStatus(id, "idle on the reasoner", func(s *status.Status) bool {
		return s.State == status.Idle && s.Model.ID == "mock-reasoner" && s.Thinking != nil && *s.Thinking == "high"
	})
	w.waitUsage(id)

	// Quit: the file goes, before Pi has exited (the extension waits for
	// its bridge at session_shutdown).
	p.quit()
	if _, err := os.Lstat(w.statusPath(id)); !os.IsNotExist(err) {
		t.Errorf("pi %s exited and its status file is still there (%v)", version, err)
	}
	w.waitGone(w.statusPath(id), "the status file after quit")
	if out := os.Getenv("JIG_DEMO_OUT"); out != "" && version == piVersions[len(piVersions)-1] && after.SessionFile != nil {
		// The demo replays a transcript the project made itself: this one.
		data, err := os.ReadFile(*after.SessionFile)
		if err != nil || os.WriteFile(out, data, 0o644) != nil {
			t.Errorf("JIG_DEMO_OUT: cannot copy the transcript: %v", err)
		}
	}

	// Resumed, the session keeps its switches (from its jig-session.switches
	// entry) and its outputs (from its transcript).
	resumed := w.startPiArgs([]string{"--session", *after.SessionFile})
	if rid := resumed.sessionID(); rid != id {
		t.Fatalf("--session resumed %s, want %s", rid, id)
	}
	_, res := w.waitStatus(id, "the resumed session with its switch and outputs", func(s *status.Status) bool {
		return s.Switches.Tools["bash"] == false && len(s.Switches.Tools) == 1 && s.Tools.Active == 3 && len(s.Outputs) == 2 &&
			s.PID == resumed.cmd.Process.Pid
	})
	for _, o := range res.Outputs {
		if o.Action != outs[o.Path] {
			t.Errorf("resumed, output %s is %s, was %s", o.Path, o.Action, outs[o.Path])
		}
	}
	w.waitUsage(id)
	n = len(w.model.Requests())
	w.model.Queue(text("resumed without bash"))
	resumed.prompt("resumed?")
	if offered := w.model.Requests()[n].Tools; strings.Contains(","+strings.Join(offered, ",")+",", ",bash,") {
		t.Errorf("after a resume, the model was offered %v again", offered)
	}
	resumed.quit()
	w.waitGone(w.statusPath(id), "the resumed session's file after quit")

	testLife(t, w)
}

// testLife checks the file's life around Pi's: a Pi killed alone (its
// bridge sees its input end), a Pi killed with its bridge (the next start
// cleans up), a new session, a child Pi.
func testLife(t *testing.T, w *world) {
	alone := w.startPi()
	aloneID := alone.sessionID()
	w.waitStatus(aloneID, "the session", func(s *status.Status) bool { return true })
	syscall.Kill(alone.cmd.Process.Pid, syscall.SIGKILL)
	w.waitGone(w.statusPath(aloneID), "the file of a Pi killed alone")

	// A bridge that dies mid-session is said once; Pi works on, its tools
	// do not wait for it.
	orphan := w.startPi()
	orphanID := orphan.sessionID()
	w.waitStatus(orphanID, "the session", func(s *status.Status) bool { return true })
	syscall.Kill(orphan.bridgePid(), syscall.SIGKILL)
	stopped := orphan.waitEvent("the bridge-stopped notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	if msg, _ := stopped["message"].(string); !strings.Contains(msg, "jig: the session bridge stopped") || !strings.Contains(msg, "SIGKILL") {
		t.Errorf("notice %q, want the bridge stopped by SIGKILL", msg)
	}
	w.model.Queue(toolCall("call_orphan", "write", map[string]any{"path": "orphan.txt", "content": "x"}), text("written"))
	orphan.prompt("write without a bridge")
	if _, err := os.Stat(filepath.Join(w.work, "orphan.txt")); err != nil {
		t.Errorf("pi %s without its bridge did not write: %v", w.version, err)
	}
	orphan.quit()
	for _, line := range orphan.output() {
		if strings.Contains(line, `"method":"notify"`) && strings.Contains(line, "jig:") && !strings.Contains(line, "bridge stopped") {
			t.Errorf("another notice after the bridge stopped: %s", line)
		}
	}
	if n := strings.Count(strings.Join(orphan.output(), "\n"), "bridge stopped"); n != 1 {
		t.Errorf("the bridge's end was said %d times, want once", n)
	}

	crashed := w.startPi()
	crashedID := crashed.sessionID()
	w.waitStatus(crashedID, "the session", func(s *status.Status) bool { return true })
	w.waitGone(w.statusPath(orphanID), "the file the dead bridge left, after the next start")
	syscall.Kill(-crashed.cmd.Process.Pid, syscall.SIGKILL)
	<-crashed.exited
	if _, err := os.Stat(w.statusPath(crashedID)); err != nil {
		t.Fatalf("a Pi killed with its bridge left no file (%v): nothing to clean up", err)
	}

	// This one also has a tool registered hidden (1.x: exposure "hidden").
	vault := filepath.Join(filepath.Dir(w.decider), "vault.ts")
	if err := os.WriteFile(vault, []byte(`export default function (pi: any) {
	pi.registerTool({ name: "vault", label: "Vault", description: "Opens the vault.", exposure: "hidden",
		parameters: { type: "object", properties: {} },
		async execute() { return { content: [{ type: "text", text: "open" }], details: {} }; } });
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	next := w.startPiArgs([]string{"-e", vault})
	nextID := next.sessionID()
	w.waitStatus(nextID, "the next session", func(s *status.Status) bool { return true })
	w.waitGone(w.statusPath(crashedID), "the crashed session's file after the next start")
	if !strings.HasPrefix(w.version, "0.") {
		// A hidden tool cannot be turned on: the answer names it.
		req := exec.Command(w.jig, "request", "tool", "vault", "on", "--session", nextID, "--wait")
		req.Env = w.env()
		if out, err := req.CombinedOutput(); err == nil || !strings.Contains(string(out), "vault is hidden") {
			t.Errorf("jig request tool vault on: %v, %s; want not ok, vault named hidden", err, out)
		}
	}

	// A new session gets its own file; the old one goes.
	next.call(map[string]any{"type": "new_session"})
	newID := next.sessionID()
	if newID == nextID {
		t.Fatal("new_session kept the session id")
	}
	w.waitStatus(newID, "the new session", func(s *status.Status) bool { return true })
	w.waitGone(w.statusPath(nextID), "the file of the session left by new_session")

	// A fork is a new session too: its own file; the one forked from goes.
	w.model.Queue(text("a reply to fork from"))
	next.prompt("fork from here")
	msgs, _ := next.call(map[string]any{"type": "get_fork_messages"})["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatal("get_fork_messages: none")
	}
	entry, _ := msgs[0].(map[string]any)["entryId"].(string)
	next.call(map[string]any{"type": "fork", "entryId": entry})
	forkID := next.sessionID()
	if forkID == newID {
		t.Fatal("fork kept the session id")
	}
	w.waitStatus(forkID, "the forked session", func(s *status.Status) bool { return s.PID == next.cmd.Process.Pid })
	w.waitGone(w.statusPath(newID), "the file of the session forked from")
	next.quit()
	w.waitGone(w.statusPath(forkID), "the forked session's file after quit")

	// Without jig, the extension says so once and Pi works as before.
	lost := w.startPi("JIG_BIN=" + filepath.Join(w.home, "no-such-jig"))
	note := lost.waitEvent("the not-found notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	if msg, _ := note["message"].(string); !strings.Contains(msg, "jig: not found") {
		t.Errorf("notice %q, want jig: not found", msg)
	}
	w.model.Queue(text("works without jig"))
	lost.prompt("still working?")
	lost.quit()
	for _, line := range lost.output() {
		if strings.Contains(line, `"method":"notify"`) && strings.Contains(line, "jig:") && !strings.Contains(line, "jig: not found") {
			t.Errorf("a second notice from the extension without jig: %s", line)
		}
	}

	// A child Pi writes nothing, even after a turn.
	child := w.startPi("JIG_PARENT_SESSION=" + newID)
	childID := child.sessionID()
	w.model.Queue(text("child reply"))
	child.prompt("hello from the parent")
	child.quit()
	// (A temp file of a write cut short by SIGKILL may stay for now: readers
	// skip it, and the next start or `jig session gc` removes it once it is
	// status.TempGrace old.)
	left, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
	if len(left) != 0 {
		t.Errorf("status files left in sessions/ (the child is %s): %v", childID, left)
	}
}

// waitUsage waits until the file's usage equals the sums over the
// transcript's assistant messages (Pi may write its last reply after the
// event that ended the run; the bridge reads it at its next poll).
func (w *world) waitUsage(session string) {
	w.t.Helper()
	var why string
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		if s, err := w.readStatus(session); err == nil && s.SessionFile != nil {
			if why = usageMismatch(*s.SessionFile, s.Usage); why == "" {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Errorf("pi %s: %s", w.version, why)
}

func (w *world) readStatus(session string) (*status.Status, error) {
	data, err := os.ReadFile(w.statusPath(session))
	if err != nil {
		return nil, err
	}
	return status.Decode(data)
}

// usageMismatch says how usage differs from the transcript's sums, or "".
func usageMismatch(transcript string, got status.Usage) string {
	data, err := os.ReadFile(transcript)
	if err != nil {
		return "transcript: " + err.Error()
	}
	var want status.Usage
	var cost float64
	for _, line := range strings.Split(string(data), "\n") {
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role  string `json:"role"`
				Usage struct {
					Input, Output, CacheRead, CacheWrite int64
					Cost                                 struct{ Total float64 }
				} `json:"usage"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.Type != "message" || e.Message.Role != "assistant" {
			continue
		}
		u := e.Message.Usage
		want.Input += u.Input
		want.Output += u.Output
		want.CacheRead += u.CacheRead
		want.CacheWrite += u.CacheWrite
		cost += u.Cost.Total
	}
	switch {
	case want.Input == 0:
		return "the transcript has no usage: the scripted model's usage never arrived"
	case got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite:
		return fmt.Sprintf("usage %+v, want the transcript's sums %+v", got, want)
	case got.Cost == nil || *got.Cost < cost-1e-9 || *got.Cost > cost+1e-9:
		return fmt.Sprintf("cost %v, want the transcript's %v", got.Cost, cost)
	}
	return ""
}
