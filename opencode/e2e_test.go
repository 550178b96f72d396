//go:build linux

package opencode_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
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
	"jig/opencode"
	"jig/status"
)

// The end-to-end tests run the real OpenCode (the native 1.18.33 that
// .ci/provision installs) against a scripted Chat Completions server, with
// jig's plugin installed by `jig install opencode`, and look at the status
// files the bridge keeps. Locally they skip loudly without OpenCode; in CI
// they fail (internal/pitest).

const waitLimit = 60 * time.Second

func TestMain(m *testing.M) { testsrc.Main(m) }

// world is one isolated OpenCode: its home and XDG folders, project, jig's
// state dir and scripted model.
type world struct {
	t                               *testing.T
	bin, jig                        string
	root, home, config, work, state string
	model                           *scriptedmodel.Server
}

// secret is in every command the model runs: no file jig writes may hold it.
const secret = "s3cr3t-arg-value"

func newWorld(t *testing.T, permission map[string]any) *world {
	w := &world{t: t, bin: pitest.OpenCode(t), jig: testsrc.Jig(t, ".js")}
	w.root = t.TempDir()
	w.home, w.config, w.work, w.state = filepath.Join(w.root, "home"), filepath.Join(w.root, "config"), filepath.Join(w.root, "project"), filepath.Join(w.root, "jig")
	// OpenCode npm-installs its plugin package into a config folder at
	// start unless the folder has node_modules and a lock naming it
	// (its Npm.install): seeded, so the tests never reach a registry.
	seed := filepath.Join(w.config, "opencode")
	for _, d := range []string{w.home, w.work, filepath.Join(seed, "node_modules")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.writeJSON(filepath.Join(seed, "package-lock.json"), map[string]any{"packages": map[string]any{"": map[string]any{
		"dependencies": map[string]any{"@opencode-ai/plugin": pitest.OpenCodeVersion}}}})
	m, err := scriptedmodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.AnswerUntooled(scriptedmodel.Reply{Text: "A title", Usage: scriptedmodel.Usage{Prompt: 10, Completion: 2}})
	w.model = m
	cfg := map[string]any{
		"provider": map[string]any{"mock": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Mock",
			"options": map[string]any{"baseURL": m.URL, "apiKey": "sk-mock"},
			"models": map[string]any{"mock-model": map[string]any{"name": "Mock Model",
				"limit": map[string]any{"context": 128000, "output": 4096}, "cost": map[string]any{"input": 1, "output": 2}}},
		}},
		"model": "mock/mock-model", "small_model": "mock/mock-model", "autoupdate": false, "share": "disabled",
	}
	if permission != nil {
		cfg["permission"] = permission
	}
	w.writeJSON(filepath.Join(w.work, "opencode.json"), cfg)
	out, err := w.cmd(w.jig, "install", "opencode").CombinedOutput()
	if err != nil {
		t.Fatalf("jig install opencode: %v\n%s", err, out)
	}
	return w
}

func (w *world) env(extra ...string) []string {
	env := []string{"HOME=" + w.home, "XDG_CONFIG_HOME=" + w.config, "XDG_DATA_HOME=" + filepath.Join(w.root, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(w.root, "cache"), "XDG_STATE_HOME=" + filepath.Join(w.root, "state"),
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		"JIG_BIN=" + w.jig, "JIG_STATE_DIR=" + w.state, "OPENCODE_BIN=" + w.bin, "PATH=" + os.Getenv("PATH"),
		"npm_config_registry=http://127.0.0.1:9/"} // a registry that is not there: nothing is fetched
	return append(env, extra...)
}

func (w *world) cmd(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir, c.Env = w.work, w.env()
	return c
}

func (w *world) writeFile(path, data string) {
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) writeJSON(path string, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// start starts opencode with args; its output goes to a file shown on failure.
func (w *world) start(args ...string) *exec.Cmd {
	w.t.Helper()
	c := w.cmd(w.bin, args...)
	log, _ := os.Create(filepath.Join(w.root, fmt.Sprintf("opencode-%d.log", time.Now().UnixNano())))
	c.Stdout, c.Stderr = log, log
	// Its own group, killed at the end; and killed with the test process
	// should that die first (a timeout), so no opencode outlives it.
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := c.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		c.Wait()
		log.Close()
		if w.t.Failed() {
			data, _ := os.ReadFile(log.Name())
			w.t.Logf("opencode %s said:\n%s", strings.Join(args, " "), data)
		}
	})
	return c
}

// sessions are the status files in the state dir, by session id.
func (w *world) sessions() map[string]*status.Status {
	files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
	out := map[string]*status.Status{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if s, err := status.Decode(data); err == nil {
			out[s.Session] = s
		}
	}
	return out
}

// wait polls until ok holds of some session's status, and returns it.
func (w *world) wait(what string, ok func(s *status.Status) bool) *status.Status {
	w.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		for _, s := range w.sessions() {
			if ok(s) {
				return s
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: never seen; files: %s", what, w.dump())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (w *world) dump() string {
	data, _ := json.MarshalIndent(w.sessions(), "", " ")
	return string(data)
}

// waitRequests waits for the model's n-th request (counting those with tools).
func (w *world) waitRequests(n int) {
	w.t.Helper()
	if !w.model.Script.WaitRequests(n, nil, waitLimit) {
		w.t.Fatalf("the model's request %d never came; files: %s", n, w.dump())
	}
}

func toolCall(id, name string, args any) scriptedmodel.Reply {
	data, _ := json.Marshal(args)
	return scriptedmodel.Reply{ToolCalls: []scriptedmodel.ToolCall{{ID: id, Name: name, Args: string(data)}},
		Usage: scriptedmodel.Usage{Prompt: 1200, Completion: 30, Cached: 200}}
}

func text(s string) scriptedmodel.Reply {
	return scriptedmodel.Reply{Text: s, Usage: scriptedmodel.Usage{Prompt: 1500, Completion: 10, Cached: 1000}}
}

// noValues checks that nothing under the state dir holds the secret, plain,
// JSON-escaped, base64 or hex.
func (w *world) noValues() {
	w.t.Helper()
	forms := []string{secret, base64.StdEncoding.EncodeToString([]byte(secret)), hex.EncodeToString([]byte(secret))}
	filepath.WalkDir(w.state, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, f := range forms {
			if bytes.Contains(data, []byte(f)) {
				w.t.Errorf("%s holds an argument value (%s)", path, f)
			}
		}
		return nil
	})
}

func waitExit(t *testing.T, c *exec.Cmd) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("opencode %s: %v", strings.Join(c.Args[1:], " "), err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("opencode %s did not end", strings.Join(c.Args[1:], " "))
	}
}

// TestRun runs `opencode run` twice: a shell call and a file write, then
// the same session continued. Mid-run the file says agent opencode, busy,
// the model and window; usage, cost and context are OpenCode's own (its
// export says the same); the file goes when opencode exits; the continued
// session keeps its output, read back through opencode export; and
// `jig opencode sessions` and `show` read the session from OpenCode.
func TestRun(t *testing.T) {
	w := newWorld(t, nil)
	target := filepath.Join(w.work, "notes.txt")
	run := w.start("run", "make notes")
	w.waitRequests(1)
	s := w.wait("busy mid-run", func(s *status.Status) bool { return s.State == status.Busy && s.Model != nil })
	id := s.Session
	if s.Agent != opencode.Agent.ID || s.Model.ID != "mock-model" || s.Model.Provider != "mock" || s.Model.Name != "Mock Model" {
		t.Errorf("agent %q model %+v, want opencode's mock/mock-model (Mock Model)", s.Agent, s.Model)
	}
	if s.Context.Window == nil || *s.Context.Window != 128000 || s.PID != run.Process.Pid {
		t.Errorf("window %v pid %d, want 128000 and opencode's pid %d", s.Context.Window, s.PID, run.Process.Pid)
	}
	w.model.Queue(toolCall("call_1", "bash", map[string]string{"command": "echo " + secret + " > shell.txt"}),
		toolCall("call_2", "write", map[string]string{"filePath": "notes.txt", "content": secret}))
	w.waitRequests(3) // the third step waits: both calls are done
	s = w.wait("both calls and the output", func(s *status.Status) bool { return len(s.Recent) == 2 && len(s.Outputs) == 1 })
	if s.Recent[0].Tool != "write" || s.Recent[1].Tool != "bash" || s.Recent[0].Outcome != status.OK || s.Recent[1].Outcome != status.OK {
		t.Errorf("recent %+v, want write then bash, both ok", s.Recent)
	}
	if o := s.Outputs[0]; o.Path != target || o.Action != status.Created {
		t.Errorf("output %+v, want %s created", o, target)
	}
	if _, err := os.Stat(filepath.Join(w.work, "shell.txt")); err != nil {
		t.Errorf("the shell call did not run: %v", err)
	}
	exported, err := opencode.CLI{Bin: w.bin, Env: w.env(), Dir: w.work}.Export(id)
	if err != nil {
		t.Fatal(err)
	}
	d := exported.Derived()
	if s.Usage.Input != d.Usage.Input || s.Usage.Output != d.Usage.Output || s.Usage.CacheRead != d.Usage.CacheRead ||
		s.Usage.Cost == nil || *s.Usage.Cost != *d.Usage.Cost || *s.Usage.Cost == 0 {
		t.Errorf("usage %+v cost %v, OpenCode's own %+v cost %v", s.Usage, s.Usage.Cost, d.Usage, *d.Usage.Cost)
	}
	// OpenCode's sidebar: the last reply's tokens over the window. Its input
	// is the prompt less the cached part: 1000 + 30 + 200.
	if s.Context.Tokens == nil || *s.Context.Tokens != 1230 || s.Context.Percent == nil {
		t.Errorf("context %+v, want the last reply's 1230 tokens", s.Context)
	}
	w.model.Queue(text("done"))
	waitExit(t, run)
	if left := w.sessions(); len(left) != 0 {
		t.Errorf("files left after opencode exited: %s", w.dump())
	}
	if exported, err = (opencode.CLI{Bin: w.bin, Env: w.env(), Dir: w.work}).Export(id); err != nil {
		t.Fatal(err)
	}
	d = exported.Derived()

	// Continued: what the session did before comes back from OpenCode.
	again := w.start("run", "--session", id, "more notes")
	w.waitRequests(4)
	s = w.wait("the continued session", func(s *status.Status) bool { return s.Session == id && len(s.Outputs) == 1 && len(s.Recent) == 2 })
	if o := s.Outputs[0]; o.Path != target || o.Action != status.Created {
		t.Errorf("continued session's output %+v, want %s created", o, target)
	}
	if s.Usage.Cost == nil || *s.Usage.Cost != *d.Usage.Cost {
		t.Errorf("continued session's cost %v, want the earlier run's %v until a reply", *s.Usage.Cost, *d.Usage.Cost)
	}
	w.noValues()
	w.model.Queue(text("done again"))
	waitExit(t, again)

	out, err := w.cmd(w.jig, "opencode", "sessions", "--json").Output()
	if err != nil || !bytes.Contains(out, []byte(id)) {
		t.Errorf("jig opencode sessions: %v: %s", err, out)
	}
	out, err = w.cmd(w.jig, "opencode", "show", id).Output()
	if err != nil || !bytes.Contains(out, []byte("mock/mock-model")) || !bytes.Contains(out, []byte(target)) || !bytes.Contains(out, []byte("created")) {
		t.Errorf("jig opencode show: %v:\n%s", err, out)
	}
}

// server is `opencode serve` driven over its HTTP API.
type server struct {
	t    *testing.T
	base string
	cmd  *exec.Cmd
}

func (w *world) serve() *server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		w.t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv := &server{t: w.t, base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	srv.cmd = w.start("serve", "--port", fmt.Sprint(port), "--hostname", "127.0.0.1")
	// A request that comes while the server starts may never be answered:
	// each try has a bound of its own.
	probe := &http.Client{Timeout: 3 * time.Second}
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(200 * time.Millisecond) {
		if resp, err := probe.Get(srv.base + "/session/status"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatal("opencode serve never answered")
		}
	}
	return srv
}

func (srv *server) call(method, path string, body any, out any) {
	srv.t.Helper()
	var r io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		r = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, srv.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		srv.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		srv.t.Fatalf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			srv.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
}

func (srv *server) prompt(id, msg string, tools map[string]bool) {
	body := map[string]any{"parts": []any{map[string]any{"type": "text", "text": msg}}}
	if tools != nil {
		body["tools"] = tools
	}
	srv.call("POST", "/session/"+id+"/prompt_async", body, nil)
}

func (w *world) request(id string, args ...string) {
	w.t.Helper()
	out, err := w.cmd(w.jig, append([]string{"request", "tool", "--session", id, "--wait=30s"}, args...)...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("jig request tool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func lastTools(m *scriptedmodel.Server) []string {
	reqs := m.Script.Requests()
	return reqs[len(reqs)-1].Tools
}

func has(list []string, name string) bool {
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

// TestServe drives `opencode serve` over HTTP with bash asking first: two
// sessions in one process have two files; a permission wait shows ◐ and
// clears when answered; `jig request tool bash off` removes bash from what
// the model is offered, and a bash call that comes anyway (a prompt's own
// tools map puts it back) is refused without running; `on` brings it back
// as the config had it (asking). After kill -9, `jig session gc` removes
// the files, and no argument value is anywhere under the state dir.
func TestServe(t *testing.T) {
	w := newWorld(t, map[string]any{"bash": "ask"})
	srv := w.serve()
	var one, two struct {
		ID string `json:"id"`
	}
	srv.call("POST", "/session", map[string]any{}, &one)
	srv.call("POST", "/session", map[string]any{}, &two)
	w.wait("the second session's file", func(s *status.Status) bool { return s.Session == two.ID })
	if n := len(w.sessions()); n != 2 {
		t.Fatalf("%d files for two sessions: %s", n, w.dump())
	}

	// A permission wait: ◐ until it is answered.
	w.model.Queue(toolCall("call_a", "bash", map[string]string{"command": "touch asked-" + secret}))
	srv.prompt(one.ID, "run it", nil)
	s := w.wait("the permission wait", func(s *status.Status) bool { return s.Session == one.ID && s.Attention != nil })
	if s.Attention.Kind != status.AttentionPermission || s.Attention.Tool != "bash" || s.State != status.Busy {
		t.Errorf("attention %+v state %s, want bash waiting for permission, busy", s.Attention, s.State)
	}
	out, _ := w.cmd(w.jig, "board", "--once").Output()
	if !bytes.Contains(out, []byte("◐")) || !bytes.Contains(out, []byte("asks: bash")) {
		t.Errorf("jig board shows no ◐ for the wait:\n%s", out)
	}
	var asked []struct {
		ID string `json:"id"`
	}
	srv.call("GET", "/permission", nil, &asked)
	if len(asked) != 1 {
		t.Fatalf("permissions waiting: %+v", asked)
	}
	w.model.Queue(text("ran it"))
	srv.call("POST", "/permission/"+asked[0].ID+"/reply", map[string]string{"reply": "once"}, nil)
	w.wait("the wait cleared, the call done", func(s *status.Status) bool {
		return s.Session == one.ID && s.Attention == nil && s.State == status.Idle && len(s.Recent) == 1 && s.Recent[0].Outcome == status.OK
	})
	if _, err := os.Stat(filepath.Join(w.work, "asked-"+secret)); err != nil {
		t.Errorf("the answered call did not run: %v", err)
	}

	// bash off: no longer offered, and refused when called all the same.
	w.request(one.ID, "bash", "off")
	n, before := len(w.model.Script.Requests()), *w.sessions()[one.ID].Usage.Cost
	w.model.Queue(text("fine"))
	srv.prompt(one.ID, "hello", nil)
	w.waitRequests(n + 1)
	if offered := lastTools(w.model); has(offered, "bash") || !has(offered, "read") {
		t.Errorf("after bash off the model was offered %v", offered)
	}
	w.wait("the reply to hello", func(s *status.Status) bool {
		return s.Session == one.ID && s.State == status.Idle && *s.Usage.Cost > before
	})
	w.model.Queue(toolCall("call_b", "bash", map[string]string{"command": "touch refused-" + secret}), text("refused"))
	srv.prompt(one.ID, "run it anyway", map[string]bool{"bash": true}) // replaces the session's rules
	w.wait("the refused call", func(s *status.Status) bool {
		return s.Session == one.ID && len(s.Recent) == 2 && s.Recent[0].Outcome == status.Error && s.State == status.Idle
	})
	if s := w.sessions()[one.ID]; s.Recent[0].Tool != "bash" {
		t.Errorf("the refused call is %q's, want bash's (refused by jig, not unknown to OpenCode)", s.Recent[0].Tool)
	}
	if _, err := os.Stat(filepath.Join(w.work, "refused-"+secret)); err == nil {
		t.Error("a bash call ran while bash was off")
	}
	s = w.sessions()[one.ID]
	if s.Switches.Tools["bash"] != false || len(s.Switches.Tools) != 1 {
		t.Errorf("switches %+v, want bash off", s.Switches)
	}

	// on: offered again, and asking again as the config says: the agent's
	// own rules for bash (its "*" allow, then the config's ask) copied after
	// jig's deny, not an allow of jig's.
	w.request(one.ID, "bash", "on")
	var info struct {
		Permission []struct{ Permission, Pattern, Action string } `json:"permission"`
	}
	srv.call("GET", "/session/"+one.ID, nil, &info)
	var rules []string
	for _, r := range info.Permission {
		rules = append(rules, r.Permission+" "+r.Pattern+" "+r.Action)
	}
	if got := strings.Join(rules, ", "); !strings.HasSuffix(got, "bash * allow, bash * ask") {
		t.Errorf("the session's rules after on: %s", got)
	}
	w.model.Queue(toolCall("call_c", "bash", map[string]string{"command": "touch back-" + secret}))
	srv.prompt(one.ID, "run it again", nil)
	w.wait("bash asking again", func(s *status.Status) bool { return s.Session == one.ID && s.Attention != nil })
	if !has(lastTools(w.model), "bash") {
		t.Errorf("after bash on the model was offered %v", lastTools(w.model))
	}
	srv.call("GET", "/permission", nil, &asked)
	w.model.Queue(text("ran again"))
	srv.call("POST", "/permission/"+asked[0].ID+"/reply", map[string]string{"reply": "once"}, nil)
	w.wait("the call after on", func(s *status.Status) bool {
		return s.Session == one.ID && s.State == status.Idle && len(s.Recent) == 3
	})
	if _, err := os.Stat(filepath.Join(w.work, "back-"+secret)); err != nil {
		t.Errorf("bash did not run after on: %v", err)
	}
	w.noValues()

	// kill -9 of the bridge and opencode: the files stay until gc.
	var children []string // of any of opencode's threads
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", srv.cmd.Process.Pid))
	for _, task := range tasks {
		data, _ := os.ReadFile(task)
		children = append(children, strings.Fields(string(data))...)
	}
	for _, pid := range children {
		if cmdline, _ := os.ReadFile("/proc/" + pid + "/cmdline"); bytes.Contains(cmdline, []byte("opencode\x00bridge")) {
			var p int
			fmt.Sscan(pid, &p)
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
	syscall.Kill(srv.cmd.Process.Pid, syscall.SIGKILL)
	srv.cmd.Wait()
	if n := len(w.sessions()); n != 2 {
		t.Fatalf("after kill -9, %d files (want both, for gc): %s", n, w.dump())
	}
	if out, err := w.cmd(w.jig, "session", "gc").CombinedOutput(); err != nil {
		t.Fatalf("jig session gc: %v\n%s", err, out)
	}
	if n := len(w.sessions()); n != 0 {
		t.Errorf("after gc, %d files: %s", n, w.dump())
	}
}
