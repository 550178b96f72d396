package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"jig/internal/fixtures"
	"jig/internal/pitest"
	"jig/internal/sshtest"
	"jig/internal/testsrc"
	"jig/request"
	"jig/status"
)

func TestMain(m *testing.M) { testsrc.Main(m) }

const (
	hostileModel = `<img src=x onerror="window.__pwned=1">`
	hostileTool  = `<img src=x onerror="window.__pwned=4">`
	hostileText  = `look: <img src=x onerror="window.__pwned=2"> and <script>window.__pwned=3</script> done`
)

// browserReport is what testdata/browser.js saw.
type browserReport struct {
	Fatal, BoardURL, Answer, Forked, PwnedAnywhere string
	Errors                                         []string
	Rows                                           []struct {
		Key, Project, Model string
		Attention           bool
	}
	ChangeMs        int
	MarkAfterChange string
	Navigations     int
	Pi              struct {
		Messages []shownMessage
		Leaves   int
		Model    string
		Imgs     int
		Scripts  []string
		Pwned    *string
	}
	Notes               []string
	LiveEntry           bool
	Remote              struct{ Model, Conversation, Answer string }
	Phone               struct{ Scroll, Width int }
	RequestWritten      request.Request
	OtherLeaf           []shownMessage
	Claude, Codex       []shownMessage
	CrossOriginStatuses []int
	Anonymous           map[string]any
	WrongHost           any
	ReadOnly            struct {
		Disabled bool
		Status   int
	}
	Shots map[string]struct {
		File  string
		Bytes int
		Text  string
	}
}

type shownMessage struct {
	Role, Text string
	Calls      []string
}

func joined(ms []shownMessage) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Role + ": " + m.Text + " " + strings.Join(m.Calls, ",") + "\n")
	}
	return b.String()
}

// world is a state dir with `jig demo --live --agents 3` and three
// sessions of recorded transcripts, and two jig serve, one --read-only.
type world struct {
	t                   *testing.T
	jig, root           string
	env                 []string
	dir                 *status.Dir
	url, roURL          string
	piFile, claudeFile  string
	pi, claude, codex   string
	remote, remoteState string
	demoSessions, total int
}

func (w *world) start(name string, args ...string) *exec.Cmd {
	w.t.Helper()
	cmd := exec.Command(w.jig, args...)
	cmd.Env = w.env
	cmd.Stderr = &bytes.Buffer{}
	return cmd
}

// serve starts jig serve and returns the address it printed.
func (w *world) serve(args ...string) string {
	w.t.Helper()
	cmd := w.start("serve", append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case l := <-line:
		if !strings.HasPrefix(l, "http://127.0.0.1:") {
			w.t.Fatalf("jig serve printed %q; stderr %s", l, cmd.Stderr)
		}
		return l
	case <-time.After(30 * time.Second):
		w.t.Fatalf("jig serve printed no address; stderr %s", cmd.Stderr)
	}
	return ""
}

func (w *world) write(session, fields string) {
	w.t.Helper()
	cmd := w.start("write", "session", "write", "--session", session, "--pid", strconv.Itoa(os.Getpid()))
	cmd.Stdin, cmd.Stderr = strings.NewReader(fields), nil
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("session write %s: %v\n%s", session, err, out)
	}
}

// hostilePi is the recorded Pi session with a second branch whose user
// message is hostile, written last (the active branch).
func (w *world) hostilePi() string {
	data, err := os.ReadFile(filepath.Join(fixtures.Testdata(w.t), "recorded", "pi-1.6.0.jsonl"))
	if err != nil {
		w.t.Fatal(err)
	}
	text, _ := json.Marshal(hostileText)
	tool, _ := json.Marshal(hostileTool)
	data = append(data, []byte(`{"type":"message","id":"b0000001","parentId":"3cadb1a3","timestamp":"2026-11-30T12:20:00.000Z","message":{"role":"user","content":[{"type":"text","text":`+string(text)+`}]}}`+"\n"+
		`{"type":"message","id":"b0000002","parentId":"b0000001","timestamp":"2026-11-30T12:20:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"A branch answer"},`+
		`{"type":"toolCall","id":"h1","name":`+string(tool)+`,"arguments":{"cmd":"<script>window.__pwned=5</script>"}}]}}`+"\n"+
		`{"type":"message","id":"b0000003","parentId":"b0000002","timestamp":"2026-11-30T12:20:02.000Z","message":{"role":"toolResult","toolCallId":"h1","content":[{"type":"text","text":"<img src=x onerror=\"window.__pwned=6\">"}],"isError":false}}`+"\n")...)
	path := filepath.Join(w.root, "2026-11-30T12-15-55-096Z_01a22c62.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, jig: testsrc.Jig(t, ".js", ".html", ".css"), root: t.TempDir(), pi: "pi-hostile", claude: "claude-recorded", codex: "codex-recorded"}
	state := filepath.Join(w.root, "state")
	w.dir = &status.Dir{Root: state}
	w.env = []string{"JIG_STATE_DIR=" + state, "HOME=" + filepath.Join(w.root, "home"), "PATH=" + os.Getenv("PATH"),
		"PI_CODING_AGENT_DIR=" + filepath.Join(w.root, "pi-agent"), "JIG_SSH=false"}
	os.MkdirAll(filepath.Join(w.root, "home"), 0o700)
	demo := w.start("demo", "demo", "--live", "--agents", "3", "--pace", "300ms")
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { demo.Process.Signal(os.Interrupt); demo.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if names, _ := filepath.Glob(filepath.Join(state, "sessions", "*.json")); len(names) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jig demo --live --agents 3 wrote no three sessions: %s", demo.Stderr)
		}
	}
	w.demoSessions = 3
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	model, _ := json.Marshal(hostileModel)
	w.piFile = w.hostilePi()
	w.write(w.pi, `{"agent":"pi","sessionFile":`+strconv.Quote(w.piFile)+`,"cwd":"/src/garden","state":"idle",`+
		`"model":{"provider":"p","id":"m","name":`+string(model)+`},`+
		`"contextDetail":{"window":64000,"tokens":1500,"parts":[{"name":"system","tokens":1000},{"name":"messages","tokens":500}],`+
		`"tools":[{"name":"bash","tokens":10},{"name":"read","tokens":10}],"skills":[],"files":[]}}`)
	w.write(w.claude, `{"agent":"claude-code","sessionFile":`+strconv.Quote(abs("../claude/testdata/recorded-2.1.328.jsonl"))+`,"cwd":"/src/notes","state":"busy","model":{"provider":"anthropic","id":"claude-opus-5-5","name":"Claude Opus"}}`)
	w.write(w.codex, `{"agent":"codex","sessionFile":`+strconv.Quote(abs("../codex/rollout/testdata/exec-resume.jsonl"))+`,"cwd":"/src/shop2","state":"busy",`+
		`"attention":{"kind":"permission","tool":"exec_command"},"model":{"provider":"openai","id":"gpt-5.5","name":"gpt-5.5"}}`)
	// another machine: a real sshd whose sessions run jig with a state dir of their own
	w.remote, w.remoteState = "there-1", filepath.Join(w.root, "remote-state")
	os.Mkdir(w.remoteState, 0o700)
	srv := sshtest.Start(t, "devbox", "JIG_STATE_DIR="+w.remoteState, "PATH="+filepath.Dir(w.jig)+":/usr/bin:/bin")
	w.env = append(w.env, "JIG_SSH="+srv.SSHCommand())
	remote := w.start("write", "session", "write", "--session", w.remote, "--pid", strconv.Itoa(os.Getpid()))
	remote.Env, remote.Stderr = append(remote.Env, "JIG_STATE_DIR="+w.remoteState), nil
	remote.Stdin = strings.NewReader(`{"state":"idle","cwd":"/src/far","model":{"provider":"p","id":"m","name":"Remote Model"},"switches":{"tools":{"grep":true},"skills":{}}}`)
	if out, err := remote.CombinedOutput(); err != nil {
		t.Fatalf("the remote session: %v %s", err, out)
	}
	w.total = w.demoSessions + 4
	w.url, w.roURL = w.serve("--host", "devbox"), w.serve("--read-only")
	return w
}

// TestServeInABrowser drives both servers in one real Chromium session:
// the board (attention first, a write shown without a reload), the Pi
// session (hostile text as text, branches, a switch answered, another
// leaf, a fork Pi's own loader opens), Claude's and Codex's recorded
// transcripts, and what must be refused: no token (the event stream too),
// a forged Host, another origin's POST, --read-only. A screenshot of each
// page is taken and its text checked.
func TestServeInABrowser(t *testing.T) {
	chromium, nodeModules := pitest.Browser(t)
	node := pitest.Node(t)
	piBin, nodeBin := pitest.Pi(t, "1.6.0")
	w := newWorld(t)
	host, _ := os.Hostname()
	shots := os.Getenv("JIG_SERVE_SHOTS") // keep the screenshots there (docs/serve-board.png is one)
	if shots == "" {
		shots = t.TempDir()
	}
	base := func(u string) string { return u[:strings.Index(u, "/?token=")] }
	env := map[string]string{}
	for _, kv := range w.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	cfg, _ := json.Marshal(map[string]any{"jig": w.jig, "env": env, "chromium": chromium, "shots": shots,
		"url": w.url, "base": base(w.url), "readOnlyURL": w.roURL, "readOnlyBase": base(w.roURL), "token": w.url[strings.Index(w.url, "=")+1:],
		"host": host, "pid": os.Getpid(), "sessions": w.total, "pi": w.pi, "claude": w.claude, "codex": w.codex, "piFile": w.piFile,
		"remote": w.remote, "remoteHost": "devbox", "remoteState": w.remoteState})
	cfgFile := filepath.Join(w.root, "browser.json")
	os.WriteFile(cfgFile, cfg, 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/browser.js", cfgFile)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var r browserReport
	if jerr := json.Unmarshal(out, &r); jerr != nil || r.Fatal != "" || err != nil {
		t.Fatalf("browser.js: %v %v %s\n%s\n%s", err, jerr, r.Fatal, out, stderr.String())
	}
	if len(r.Errors) > 0 {
		t.Errorf("the page threw: %q", r.Errors)
	}

	// the board: every session, attention first, the hostile model as text
	if strings.Contains(r.BoardURL, "token=") {
		t.Errorf("the token stayed in the address: %s", r.BoardURL)
	}
	if len(r.Rows) != w.total || !r.Rows[0].Attention {
		t.Fatalf("rows %+v: want %d, attention first", r.Rows, w.total)
	}
	var projects, models []string
	for i, row := range r.Rows {
		if i > 0 && row.Attention && !r.Rows[i-1].Attention {
			t.Errorf("row %d waits for the person but comes after one that does not: %+v", i, r.Rows)
		}
		projects, models = append(projects, row.Project), append(models, row.Model)
	}
	for _, p := range []string{"shop", "api", "project", "garden", "notes", "shop2", "far"} {
		if !slices.Contains(projects, p) {
			t.Errorf("no row of project %s: %q", p, projects)
		}
	}
	if !slices.Contains(models, hostileModel) {
		t.Errorf("the hostile model name is not shown as its text: %q", models)
	}
	if r.MarkAfterChange != "kept" || r.Navigations != 1 {
		t.Errorf("the write reloaded the page: mark %q, %d navigations", r.MarkAfterChange, r.Navigations)
	}
	t.Logf("a status write reached the open board in %d ms", r.ChangeMs)
	// the demo's live sessions (shop, api, project) begin and end waits as
	// they go, so theirs may come too; of the others, only notes began one
	// (shop2 was waiting when the page opened)
	var notes []string
	for _, n := range r.Notes {
		if project, _, _ := strings.Cut(n, ":"); !slices.Contains([]string{"shop", "api", "project"}, project) {
			notes = append(notes, n)
		}
	}
	if !slices.Equal(notes, []string{"notes: question"}) {
		t.Errorf("notifications asked for: %q, want the one of the session that began to wait", r.Notes)
	}

	// the Pi session: hostile text as text, nothing run, its branches
	pi := joined(r.Pi.Messages)
	if !slices.ContainsFunc(r.Pi.Messages, func(m shownMessage) bool { return m.Role == "user" && m.Text == hostileText }) ||
		!strings.Contains(pi, "A branch answer") || !strings.Contains(pi, "The notes are tidy") || strings.Contains(pi, "Check the plans") ||
		!strings.Contains(pi, "read ✓") || !strings.Contains(pi, hostileTool+" ✓") {
		t.Errorf("Pi's active branch:\n%s", pi)
	}
	if r.Pi.Leaves != 2 || r.Pi.Imgs != 0 || !slices.Equal(r.Pi.Scripts, []string{"/static/app.js"}) || r.Pi.Pwned != nil ||
		r.PwnedAnywhere != "" || !strings.HasPrefix(r.Pi.Model, hostileModel) {
		t.Errorf("pi page: %d leaves, %d img, scripts %q, pwned %v/%q, model %q", r.Pi.Leaves, r.Pi.Imgs, r.Pi.Scripts, r.Pi.Pwned, r.PwnedAnywhere, r.Pi.Model)
	}
	if on, ok := r.RequestWritten.Tools["bash"]; !ok || on {
		t.Errorf("the switch wrote %+v", r.RequestWritten)
	}
	st, err := w.dir.Read(w.pi)
	if err != nil || st.LastRequest == nil || st.LastRequest.ID != r.RequestWritten.ID || !strings.Contains(r.Answer, st.LastRequest.Message) {
		t.Errorf("answer on the page %q; in the status %+v (%v)", r.Answer, st.LastRequest, err)
	}
	if other := joined(r.OtherLeaf); !strings.Contains(other, "Clear out last year's plan") || strings.Contains(other, "A branch answer") {
		t.Errorf("the other leaf:\n%s", other)
	}
	if !r.LiveEntry {
		t.Error("an entry the agent wrote did not appear")
	}
	checkForkOpensInPi(t, r.Forked, piBin, nodeBin, w)

	// another machine's session: its status and requests through its own jig
	if !strings.HasPrefix(r.Remote.Model, "Remote Model") || !strings.Contains(r.Remote.Conversation, "stays on its own machine") ||
		!strings.Contains(r.Remote.Answer, "grep") {
		t.Errorf("the remote session's page: %+v", r.Remote)
	}
	if rs, err := (&status.Dir{Root: w.remoteState}).Read(w.remote); err != nil || rs.Switches.Tools["grep"] {
		t.Errorf("the remote session's switches: %+v %v", rs, err)
	}
	if r.Phone.Scroll > r.Phone.Width {
		t.Errorf("at a phone's width the board is %d px wide on a %d px screen", r.Phone.Scroll, r.Phone.Width)
	}

	// Claude's and Codex's recorded transcripts
	if c := joined(r.Claude); !strings.Contains(c, "user: Write the garden notes, then list the folder.") || !strings.Contains(c, "Write ✓") ||
		!strings.Contains(c, "Bash ✓") || !strings.Contains(c, "The notes are written") {
		t.Errorf("Claude's conversation:\n%s", c)
	}
	if c := joined(r.Codex); strings.Count(c, "user: EXP-PROMPT do it") != 2 || !strings.Contains(c, "exec_command ✓") || !strings.Contains(c, "apply_patch ✓") {
		t.Errorf("Codex's conversation:\n%s", c)
	}

	// refused: another origin, no token, a forged Host, --read-only
	for _, code := range r.CrossOriginStatuses {
		if code >= 200 && code < 300 {
			t.Errorf("a cross-origin POST was answered %d", code)
		}
	}
	if req, err := request.Pending(w.dir, w.pi); req != nil || err != nil {
		t.Errorf("a cross-origin POST left a request: %+v %v", req, err)
	}
	for route, code := range r.Anonymous {
		if route == "eventSource" && code != "error" || route != "eventSource" && code != float64(401) {
			t.Errorf("without the token %s: %v", route, code)
		}
	}
	if r.WrongHost != float64(421) {
		t.Errorf("a forged Host: %v", r.WrongHost)
	}
	if !r.ReadOnly.Disabled || r.ReadOnly.Status != 403 {
		t.Errorf("--read-only: switch disabled %v, POST %d", r.ReadOnly.Disabled, r.ReadOnly.Status)
	}

	// a screenshot of each page, with its key text
	for name, key := range map[string]string{"board": "shop", "board-phone": "shop", "session-pi": "A branch answer", "session-claude": "Write the garden notes", "session-codex": "EXP-PROMPT"} {
		s, ok := r.Shots[name]
		if !ok || s.Bytes < 1000 || !strings.Contains(s.Text, key) {
			t.Errorf("screenshot %s: %d bytes, text has %q: %v", name, s.Bytes, key, ok && strings.Contains(s.Text, key))
		}
		if png, err := os.ReadFile(s.File); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Errorf("screenshot %s is no PNG: %v", name, err)
		}
	}
}

// checkForkOpensInPi has the real Pi load the forked file with its own
// session loader (`pi --export`, which needs no model) and reads what it
// loaded: the header names the source, the entries are the branch up to
// the first user message.
func checkForkOpensInPi(t *testing.T, forked, piBin, nodeBin string, w *world) {
	t.Helper()
	if _, err := os.Stat(forked); err != nil || !strings.HasPrefix(forked, filepath.Join(w.root, "pi-agent", "sessions")) {
		t.Fatalf("fork %q: %v", forked, err)
	}
	html := filepath.Join(w.root, "fork.html")
	cmd := exec.Command(piBin, "--export", forked, html)
	cmd.Env = []string{"HOME=" + filepath.Join(w.root, "home"), "PATH=" + nodeBin + ":" + os.Getenv("PATH"), "PI_CODING_AGENT_DIR=" + filepath.Join(w.root, "pi-agent")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pi --export %s: %v\n%s", forked, err, out)
	}
	page, _ := os.ReadFile(html)
	m := regexp.MustCompile(`id="session-data" type="application/json">([A-Za-z0-9+/=]+)<`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("pi's export holds no session data")
	}
	data, err := base64.StdEncoding.DecodeString(string(m[1]))
	var loaded struct {
		Header struct {
			ParentSession string `json:"parentSession"`
		} `json:"header"`
		Entries []json.RawMessage `json:"entries"`
	}
	if err != nil || json.Unmarshal(data, &loaded) != nil {
		t.Fatalf("pi's session data: %v", err)
	}
	if !strings.HasSuffix(loaded.Header.ParentSession, "_01a22c62.jsonl") || len(loaded.Entries) == 0 ||
		!bytes.Contains(loaded.Entries[len(loaded.Entries)-1], []byte("Tidy the garden notes")) {
		t.Errorf("Pi loaded the fork as header %+v with %d entries", loaded.Header, len(loaded.Entries))
	}
}
