package bridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"jig/pi/transcript"
	"jig/request"
	"jig/status"
	floor "jig/transcript"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func newTestBridge(t testing.TB) (*Bridge, *bytes.Buffer) {
	t.Helper()
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	env := map[string]string{"TMUX": "/tmp/x", "TMUX_PANE": "%3"}
	b := New(dir, func() time.Time { return t0 }, func(k string) string { return env[k] }, "host-a")
	out := &bytes.Buffer{}
	b.out = out
	return b, out
}

func handle(t *testing.T, b *Bridge, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := b.Handle([]byte(l)); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func hello(session string) string {
	return `{"type":"hello","session":"` + session + `","pid":` + itoa(os.Getpid()) + `,"sessionFile":"/tmp/s.jsonl"}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func read(t *testing.T, b *Bridge, session string) *status.Status {
	t.Helper()
	s, err := b.Dir.Read(session)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWritesWhatPiSaysLive(t *testing.T) {
	b, _ := newTestBridge(t)
	handle(t, b, hello("s1"),
		`{"type":"live","live":{"state":"busy","model":{"provider":"p","id":"m","name":"M"},"context":{"tokens":500,"window":1000,"percent":50},"tools":{"active":4,"total":7}}}`)
	s := read(t, b, "s1")
	if s.State != status.Busy || s.Model.Name != "M" || *s.Context.Window != 1000 || s.Tools.Active != 4 {
		t.Errorf("status %+v", s)
	}
	if s.Terminal == nil || *s.Terminal != "%3" || *s.TerminalFrom != "TMUX_PANE" || s.Host != "host-a" {
		t.Errorf("terminal %v from %v on %q, want %%3 from TMUX_PANE on host-a", s.Terminal, s.TerminalFrom, s.Host)
	}
	if s.SessionFile == nil || *s.SessionFile != "/tmp/s.jsonl" || s.PID != os.Getpid() {
		t.Errorf("sessionFile %v pid %d", s.SessionFile, s.PID)
	}
	// The same again changes nothing, so the file is not written.
	before, _ := os.Stat(b.Dir.SessionPath("s1"))
	handle(t, b, `{"type":"live","live":{"state":"busy","tools":{"active":4,"total":7}}}`, `{"type":"call","call":{"phase":"start","id":"c0","tool":"nothing"}}`)
	if after, err := os.Stat(b.Dir.SessionPath("s1")); err != nil || !os.SameFile(before, after) {
		t.Errorf("an event that changed nothing rewrote the file (%v)", err)
	}
	// Fields not named again keep their values.
	handle(t, b, `{"type":"live","live":{"state":"idle"}}`)
	if s := read(t, b, "s1"); s.State != status.Idle || s.Model == nil || s.Tools.Total != 7 {
		t.Errorf("after idle: %+v", s)
	}
}

func TestEndRemovesTheFileUnlessAReloadFollows(t *testing.T) {
	b, _ := newTestBridge(t)
	handle(t, b, hello("s1"), `{"type":"live","live":{"state":"idle"}}`,
		`{"type":"call","call":{"phase":"start","id":"c1","tool":"write","path":"/p/new.txt"}}`,
		`{"type":"call","call":{"phase":"end","id":"c1","tool":"write"}}`)
	if done, err := b.Handle([]byte(`{"type":"end","keep":true}`)); !done || err != nil {
		t.Fatalf("end keep: done %v err %v", done, err)
	}
	started := read(t, b, "s1").StartedAt

	// The reloaded extension's bridge takes the same file on.
	b2, _ := newTestBridge(t)
	b2.Dir = b.Dir
	b2.Now = func() time.Time { return t0.Add(time.Hour) }
	handle(t, b2, hello("s1"), `{"type":"live","live":{"state":"busy"}}`)
	s := read(t, b2, "s1")
	if !s.StartedAt.Equal(started) {
		t.Errorf("startedAt %v after a reload, want %v", s.StartedAt, started)
	}
	if len(s.Outputs) != 1 || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v after a reload, want new.txt still created", s.Outputs)
	}
	if done, err := b2.Handle([]byte(`{"type":"end"}`)); !done || err != nil {
		t.Fatalf("end: done %v err %v", done, err)
	}
	if _, err := os.Stat(b.Dir.SessionPath("s1")); !os.IsNotExist(err) {
		t.Errorf("the file is still there after end: %v", err)
	}
}

func TestInputEndingMeansPiDied(t *testing.T) {
	b, _ := newTestBridge(t)
	in := strings.NewReader(hello("s1") + "\n" + `{"type":"live","live":{"state":"busy"}}` + "\n")
	if err := b.Run(in, &bytes.Buffer{}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.Dir.SessionPath("s1")); !os.IsNotExist(err) {
		t.Errorf("the file outlived Pi: %v", err)
	}
}

func TestStartRemovesFilesOfCrashedSessions(t *testing.T) {
	b, _ := newTestBridge(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	write := func(session, host string, pid int) {
		s := &status.Status{Session: session, PID: pid, Host: host, State: status.Idle}
		if _, err := b.Dir.Write(s, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	write("crashed", "host-a", dead.Process.Pid)
	write("elsewhere", "host-b", dead.Process.Pid)
	write("alive", "host-a", os.Getpid())
	// The crashed Pi's bridge was killed mid-write, long ago.
	temp := b.Dir.Path(status.SessionsDir, ".crashed.json8674665223082153551")
	if err := os.WriteFile(temp, []byte(`{"half`), 0o600); err != nil {
		t.Fatal(err)
	}
	long := t0.Add(-status.TempGrace - time.Minute)
	os.Chtimes(temp, long, long)
	handle(t, b, hello("s1"))
	for name, want := range map[string]bool{"crashed": false, "elsewhere": true, "alive": true, "s1": true} {
		_, err := os.Stat(b.Dir.SessionPath(name))
		if (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", name, err == nil, want)
		}
	}
	if _, err := os.Lstat(temp); !os.IsNotExist(err) {
		t.Errorf("the temp file of the killed write is still there (%v)", err)
	}
}

func replies(t *testing.T, out *bytes.Buffer) []Reply {
	t.Helper()
	var rs []Reply
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var r Reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("reply %q: %v", l, err)
		}
		rs = append(rs, r)
	}
	out.Reset()
	return rs
}

func TestNotJSONIsAnErrorNotACrash(t *testing.T) {
	b, _ := newTestBridge(t)
	if _, err := b.Handle([]byte("{nope")); err == nil {
		t.Error("a broken line was taken")
	}
	if _, err := b.Handle([]byte(`{"type":"hello"}`)); err == nil {
		t.Error("hello without a session was taken")
	}
	// Without a pid no write would pass: the session is not taken on.
	if _, err := b.Handle([]byte(`{"type":"hello","session":"s1"}`)); err == nil || b.session != "" {
		t.Errorf("hello without a pid: error %v, session %q taken on", err, b.session)
	}
	handle(t, b, `{"type":"from-the-future"}`)
}

func TestRequestIsAppliedThenAnswered(t *testing.T) {
	b, out := newTestBridge(t)
	handle(t, b, hello("s1"),
		`{"type":"inventory","tools":[{"name":"read","active":true},{"name":"bash","active":true},{"name":"ghost","hidden":true}],"skills":[{"name":"pdf"}]}`)
	out.Reset()
	if _, err := request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r1",
		Tools: map[string]bool{"bash": false, "ghost": true, "nope": true}, Skills: map[string]bool{"pdf": false}}); err != nil {
		t.Fatal(err)
	}
	if err := b.CheckRequests(); err != nil {
		t.Fatal(err)
	}
	rs := replies(t, out)
	if len(rs) != 1 || rs[0].Type != "apply" || rs[0].ID != "r1" || strings.Join(rs[0].Active, ",") != "read" ||
		strings.Join(rs[0].SkillsOff, ",") != "pdf" || rs[0].Switches.Tools["bash"] {
		t.Fatalf("replies %+v, want one apply with read active and pdf off", rs)
	}
	if _, err := os.Stat(request.Path(b.Dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("the request file was not taken: %v", err)
	}
	if read(t, b, "s1").LastRequest != nil {
		t.Error("answered before the extension applied the request")
	}
	handle(t, b, `{"type":"applied","applied":{"id":"r1","active":["read"]}}`)
	s := read(t, b, "s1")
	a := s.LastRequest
	if a == nil || a.ID != "r1" || a.OK || !strings.Contains(a.Message, "bash off") || !strings.Contains(a.Message, "nope") ||
		!strings.Contains(a.Message, "ghost") {
		t.Errorf("answer %+v, want r1 not ok, naming bash off, nope and ghost", a)
	}
	if s.Switches.Tools["bash"] != false || s.Switches.Skills["pdf"] != false || len(s.Switches.Tools) != 1 {
		t.Errorf("switches %+v, want bash and pdf off", s.Switches)
	}

	// After a reload the same Pi says hello again: the switches come back
	// from the file and "ready" says what they mean.
	b2, out2 := newTestBridge(t)
	b2.Dir = b.Dir
	handle(t, b2, hello("s1"), `{"type":"inventory","tools":[{"name":"read","active":true},{"name":"bash","active":true}]}`,
		`{"type":"live","live":{"state":"idle"},"ready":true}`)
	rs = replies(t, out2)
	if len(rs) != 1 || rs[0].Type != "ready" || strings.Join(rs[0].Active, ",") != "read" {
		t.Errorf("replies %+v, want ready with only read active", rs)
	}
}

func TestABadRequestIsAnsweredAndDropped(t *testing.T) {
	b, out := newTestBridge(t)
	handle(t, b, hello("s1"))
	os.MkdirAll(b.Dir.Path(status.RequestsDir), 0o700)
	if err := os.WriteFile(request.Path(b.Dir, "s1"), []byte(`{"schema":1,"id":"r9","tools":"all"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Until Pi says what it has, a request waits in its file.
	b.CheckRequests()
	if _, err := os.Stat(request.Path(b.Dir, "s1")); err != nil {
		t.Fatalf("a request was taken before Pi's inventory: %v", err)
	}
	handle(t, b, `{"type":"inventory","tools":[{"name":"read","active":true}]}`)
	b.CheckRequests()
	if rs := replies(t, out); len(rs) != 0 {
		t.Errorf("a bad request was sent on: %+v", rs)
	}
	if a := read(t, b, "s1").LastRequest; a == nil || a.ID != "r9" || a.OK {
		t.Errorf("answer %+v, want r9 not ok", a)
	}
}

func TestOutputsSayCreatedOrChanged(t *testing.T) {
	b, out := newTestBridge(t)
	p := t.TempDir()
	for _, f := range []string{"old.txt", "bad.txt"} {
		if err := os.WriteFile(filepath.Join(p, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	handle(t, b, hello("s1"), `{"type":"live","live":{"cwd":"`+p+`"}}`)
	out.Reset()
	// Paths as the model gave them, keyed as the transcript reader keys them.
	// Each start is checked (and answered) before the tool runs.
	step := func(id, tool, path string, write bool) {
		t.Helper()
		handle(t, b, `{"type":"call","call":{"phase":"start","id":"`+id+`","tool":"`+tool+`","path":"`+path+`"}}`)
		if got := strings.TrimSpace(out.String()); got != `{"type":"checked","id":"`+id+`"}` {
			t.Fatalf("call %s start: replied %q, want checked", id, got)
		}
		out.Reset()
		if write {
			os.WriteFile(transcript.ResolvePath(p, "", path), []byte("x"), 0o600)
		}
		handle(t, b, `{"type":"call","call":{"phase":"end","id":"`+id+`","tool":"`+tool+`","error":`+strconv.FormatBool(!write)+`}}`)
	}
	step("c1", "write", "new.txt", true)
	step("c2", "edit", "@old.txt", true)
	step("c3", "edit", p+"/bad.txt", false)
	step("c4", "edit", p+"/new.txt", true) // editing a file this session created leaves it created
	handle(t, b, `{"type":"call","call":{"phase":"start","id":"c5","tool":"bash"}}`)
	if out.Len() != 0 {
		t.Errorf("a call without a path was answered: %s", out)
	}
	got := map[string]string{}
	for _, o := range read(t, b, "s1").Outputs {
		got[o.Path] = o.Action
	}
	if len(got) != 2 || got[filepath.Join(p, "new.txt")] != status.Created || got[filepath.Join(p, "old.txt")] != status.Changed {
		t.Errorf("outputs %v, want new.txt created and old.txt changed", got)
	}
}

func TestToolsPiRefusedAreNamed(t *testing.T) {
	b, out := newTestBridge(t)
	handle(t, b, hello("s1"), `{"type":"inventory","tools":[{"name":"read","active":true},{"name":"grep","active":false}]}`)
	if _, err := request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"grep": true}}); err != nil {
		t.Fatal(err)
	}
	b.CheckRequests()
	out.Reset()
	handle(t, b, `{"type":"applied","applied":{"id":"r1","active":["read"]}}`) // Pi left grep off
	if a := read(t, b, "s1").LastRequest; a == nil || a.OK || !strings.Contains(a.Message, "Pi did not activate grep") {
		t.Errorf("answer %+v, want not ok, naming grep", a)
	}
}

func TestAReloadBeforeApplyingIsAnswered(t *testing.T) {
	b, _ := newTestBridge(t)
	handle(t, b, hello("s1"), `{"type":"inventory","tools":[{"name":"read","active":true},{"name":"bash","active":true}]}`)
	if _, err := request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"bash": false}}); err != nil {
		t.Fatal(err)
	}
	b.CheckRequests()
	handle(t, b, `{"type":"end","keep":true}`)
	s := read(t, b, "s1")
	if a := s.LastRequest; a == nil || a.ID != "r1" || a.OK || !strings.Contains(a.Message, "ask again") {
		t.Errorf("answer %+v, want r1 not ok: reloaded before applying", a)
	}
	if len(s.Switches.Tools) != 0 {
		t.Errorf("switches %+v: a request never applied counts for nothing", s.Switches)
	}
}

func TestTranscriptGivesUsageAndRecentWithDecisions(t *testing.T) {
	b, _ := newTestBridge(t)
	file := filepath.Join(t.TempDir(), "s1.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls -la secret"}}],"provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":2,"cacheWrite":0,"totalTokens":17,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"toolUse","timestamp":1795980001000}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-11-29T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":1795980002000}}`,
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	handle(t, b, `{"type":"hello","session":"s1","pid":`+itoa(os.Getpid())+`,"sessionFile":"`+file+`"}`,
		`{"type":"call","call":{"phase":"start","id":"c1","tool":"bash"}}`,
		`{"type":"decision","decision":{"id":"c1","action":"list","decision":"allow","answer":"fine"}}`,
		`{"type":"call","call":{"phase":"end","id":"c1","tool":"bash"}}`)
	s := read(t, b, "s1")
	if s.Usage.Input != 10 || s.Usage.Output != 5 || s.Usage.CacheRead != 2 || s.Usage.Cost == nil {
		t.Errorf("usage %+v, want the transcript's", s.Usage)
	}
	if len(s.Recent) != 1 || s.Recent[0].Tool != "bash" || s.Recent[0].Outcome != status.OK ||
		s.Recent[0].Decision != "allow" || s.Recent[0].Answer != "fine" || s.Recent[0].Action != "list" {
		t.Errorf("recent %+v, want bash ok, allowed, with its answer", s.Recent)
	}
	data, _ := os.ReadFile(b.Dir.SessionPath("s1"))
	if strings.Contains(string(data), "secret") {
		t.Errorf("an argument value reached the file:\n%s", data)
	}
}

// Every tool off is a list of none, not "leave the tools".
func TestAllToolsOffIsAnEmptyList(t *testing.T) {
	b, out := newTestBridge(t)
	handle(t, b, hello("s1"), `{"type":"inventory","tools":[{"name":"read","active":true}]}`)
	out.Reset()
	request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"read": false}})
	b.CheckRequests()
	if got := strings.TrimSpace(out.String()); !strings.Contains(got, `"active":[]`) {
		t.Errorf("apply %s, want active []", got)
	}
	handle(t, b, `{"type":"applied","applied":{"id":"r1","active":[]}}`)
	out.Reset()
	handle(t, b, `{"type":"live","live":{},"ready":true}`)
	if got := strings.TrimSpace(out.String()); !strings.Contains(got, `"active":[]`) {
		t.Errorf("ready %s, want active []", got)
	}
	b2, out2 := newTestBridge(t)
	handle(t, b2, hello("s2"), `{"type":"live","live":{},"ready":true}`)
	if got := strings.TrimSpace(out2.String()); !strings.Contains(got, `"active":null`) {
		t.Errorf("ready without switches %s, want active null", got)
	}
}

// A request the extension never confirms is answered as such, and the next
// one is taken.
func TestUnconfirmedRequestIsAnsweredAndTheNextTaken(t *testing.T) {
	b, out := newTestBridge(t)
	now := t0
	b.Now = func() time.Time { return now }
	handle(t, b, hello("s1"), `{"type":"inventory","tools":[{"name":"read","active":true},{"name":"bash","active":true}]}`)
	out.Reset()
	request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"bash": false}})
	b.CheckRequests()
	request.Send(b.Dir, "s1", &request.Request{Schema: 1, ID: "r2", Tools: map[string]bool{"read": false}})
	b.CheckRequests()
	if rs := replies(t, out); len(rs) != 1 || rs[0].ID != "r1" {
		t.Fatalf("replies %+v, want only r1 while it waits", rs)
	}
	now = now.Add(applyWait + time.Second)
	b.CheckRequests()
	if rs := replies(t, out); len(rs) != 1 || rs[0].ID != "r2" {
		t.Errorf("replies %+v, want r2 taken after r1 timed out", rs)
	}
	s := read(t, b, "s1")
	if a := s.LastRequest; a == nil || a.ID != "r1" || a.OK || !strings.Contains(a.Message, "did not confirm") {
		t.Errorf("answer %+v, want r1 not confirmed", a)
	}
	if len(s.Switches.Tools) != 0 {
		t.Errorf("switches %+v: an unconfirmed request counted", s.Switches)
	}
}

// Pi may append its last message after the event that ended the run; the
// next poll picks it up.
func TestRefreshReadsWhatPiWroteAfterTheLastEvent(t *testing.T) {
	b, _ := newTestBridge(t)
	file := filepath.Join(t.TempDir(), "s1.jsonl")
	head := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/p"}` + "\n"
	if err := os.WriteFile(file, []byte(head), 0o600); err != nil {
		t.Fatal(err)
	}
	handle(t, b, `{"type":"hello","session":"s1","pid":`+itoa(os.Getpid())+`,"sessionFile":"`+file+`"}`,
		`{"type":"live","live":{"state":"idle"}}`)
	if u := read(t, b, "s1").Usage; u.Input != 0 {
		t.Fatalf("usage %+v before any reply", u)
	}
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"stop","timestamp":1795980001000}}` + "\n")
	f.Close()
	if err := b.Refresh(); err != nil {
		t.Fatal(err)
	}
	if u := read(t, b, "s1").Usage; u.Input != 10 || u.Output != 5 {
		t.Errorf("usage %+v after a refresh, want the new reply's", u)
	}
}

func TestDecisionWordsAreNamesOnly(t *testing.T) {
	for in, want := range map[string]string{
		"allow":                        "allow",
		"ask → allow":                  "",
		"deny once":                    "deny once",
		"git-push:force":               "git-push:force",
		"rm -rf /home/me":              "",
		"curl https://x?token=SECRET1": "",
		"allowed by rule 3, once":      "allowed by rule 3, once",
		strings.Repeat("a", 81):        "",
	} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %q, want %q", in, got, want)
		}
	}
}

// A line that would make a bad file is refused whole: the session stays as
// it was and the next good line is written. Merged into the live fields,
// one bad field used to fail every later write, the file frozen busy.
func TestABadLineIsRefusedWhole(t *testing.T) {
	for _, c := range []struct{ line, says string }{
		{`{"type":"live","live":{"thinking":5}}`, "bridge: live: field thinking: number is not a string"},
		{`{"type":"live","live":{"context":{"tokens":1e400}}}`, "bridge: live: field context.tokens: number 1e400 is not a int64"},
		{`{"type":"live","live":{"state":"asleep"}}`, `bridge: live: state "asleep": want "busy" or "idle"`},
		{`{"type":"live","live":{"outputs":[{"path":"/p/x","action":"moved"}]}}`, `bridge: live: output action "moved"`},
		{`{"type":"context","context":{"messages":"many"}}`, "bridge: context: json: cannot unmarshal string into Go struct field ContextSizes.messages of type int64"},
	} {
		b, _ := newTestBridge(t)
		handle(t, b, hello("s1"),
			`{"type":"inventory","tools":[{"name":"read","active":true,"chars":400}]}`,
			`{"type":"context","context":{"systemPrompt":4000,"messages":800}}`,
			`{"type":"live","live":{"state":"busy","thinking":"high","model":{"provider":"p","id":"m","name":"M"},"context":{"tokens":500,"window":1000}}}`)
		file, _ := os.ReadFile(b.Dir.SessionPath("s1"))
		kept := b.sessionState.clone()
		if _, err := b.Handle([]byte(c.line)); err == nil || !strings.HasPrefix(err.Error(), c.says) {
			t.Errorf("%.80s: error %v, want %q", c.line, err, c.says)
		}
		if !reflect.DeepEqual(b.sessionState, kept) {
			t.Errorf("%.80s: the refused line changed the session", c.line)
		}
		if now, _ := os.ReadFile(b.Dir.SessionPath("s1")); !bytes.Equal(now, file) {
			t.Errorf("%.80s: the refused line changed the file", c.line)
		}
		handle(t, b, `{"type":"live","live":{"state":"idle","context":{"tokens":600}}}`,
			`{"type":"context","context":{"messages":1200}}`)
		s := read(t, b, "s1")
		if s.State != status.Idle || *s.Context.Tokens != 600 || *s.Thinking != "high" || s.Model.Name != "M" ||
			s.ContextDetail == nil || s.ContextDetail.Parts[4].Tokens != 300 || len(s.ContextDetail.Tools) != 1 {
			t.Errorf("%.80s: later lines did not apply: %+v", c.line, s)
		}
	}
}

// Fields too long for the file are cut to their limits, not refused: the
// file stays within what readers take, and later lines apply. Before the
// bounds, two large fields made a file every reader refused.
func TestHugeFieldsAreCut(t *testing.T) {
	b, _ := newTestBridge(t)
	huge := strings.Repeat("<", status.MaxFileSize/6)
	handle(t, b, hello("s1"),
		`{"type":"live","live":{"cwd":"/`+huge+`"}}`,
		`{"type":"context","context":{"systemPrompt":4000,"files":[{"path":"/`+huge+`","chars":1}]}}`,
		`{"type":"inventory","tools":[{"name":"`+huge+`","active":true}]}`,
		`{"type":"live","live":{"state":"idle"}}`)
	s := read(t, b, "s1")
	if s.State != status.Idle || len(s.CWD) != status.MaxPath || !strings.HasSuffix(s.CWD, "…") {
		t.Errorf("state %s, cwd of %d bytes: want idle and a cwd cut to %d", s.State, len(s.CWD), status.MaxPath)
	}
	if fi, err := os.Stat(b.Dir.SessionPath("s1")); err != nil || fi.Size() > 64<<10 {
		t.Errorf("file: %v, %d bytes", err, fi.Size())
	}
}

// The notice of a refused line is one short line for Pi's UI: the value
// that made it fail is cut short and cannot draw on the terminal.
func TestANoticeIsShortAndClean(t *testing.T) {
	b, _ := newTestBridge(t)
	in := strings.Join([]string{hello("s1"),
		`{"type":"live","live":{"context":{"tokens":1` + strings.Repeat("0", 100000) + `}}}`,
		`{"type":"live","live":{"state":"\u001b[31mred"}}`,
		`{"type":"end","keep":true}`}, "\n")
	out := &bytes.Buffer{}
	if err := b.Run(strings.NewReader(in), out, time.Hour); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var n Notice
		if err := json.Unmarshal([]byte(l), &n); err != nil || n.Type != "notice" {
			t.Fatalf("reply %.200q, want a notice (%v)", l, err)
		}
		got = append(got, n.Message)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "bridge: live: field context.tokens: number 10000") ||
		!strings.HasSuffix(got[0], "…") || len(got[0]) > 3*noticeWidth || strings.ContainsRune(got[1], 0x1b) {
		t.Errorf("notices %q, want the tokens one cut short, the state one without the escape", got)
	}
}

// A line longer than any status file is skipped, said once, and the lines
// after it apply. It used to end the input: the bridge took Pi for dead and
// removed the file while Pi ran.
func TestAnOverLongLineIsSkipped(t *testing.T) {
	b, _ := newTestBridge(t)
	in := strings.Join([]string{hello("s1"),
		`{"type":"live","live":{"state":"busy"}}`,
		`{"type":"live","live":{"cwd":"` + strings.Repeat("x", 5<<20) + `"}}`,
		`{"type":"live","live":{"state":"idle","thinking":"low"}}`,
		`{"type":"end","keep":true}`}, "\n")
	out := &bytes.Buffer{}
	if err := b.Run(strings.NewReader(in), out, time.Hour); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"notice","message":"bridge: a line longer than 4194304 bytes: skipped"}`
	if got := strings.TrimSpace(out.String()); got != want {
		t.Errorf("replies %.300q, want %s", got, want)
	}
	if s := read(t, b, "s1"); s.State != status.Idle || s.Thinking == nil || *s.Thinking != "low" {
		t.Errorf("after the long line: state %s thinking %v, want idle and low", s.State, s.Thinking)
	}
}

func TestReadLine(t *testing.T) {
	const limit = 8
	in := "a\n\n12345678\n123456789\n" + strings.Repeat("z", 300) + "\n{}\r\nlast"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	var got []string
	for {
		line, err := floor.ReadLine(r, limit)
		if err == io.EOF {
			break
		}
		if errors.Is(err, floor.ErrLineTooLong) {
			line = []byte("(too long)")
		} else if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"a", "", "12345678", "(too long)", "(too long)", "{}\r", "last"}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// A call jig-core asks the person about waits (attention permission, the
// call's tool, since the ask) until it is answered, it ends, or a run
// starts or ends; a run that ended on an error after Pi's retries waits
// until the next one starts.
func TestAttentionFollowsAsksAndRuns(t *testing.T) {
	b, _ := newTestBridge(t)
	now := t0
	b.Now = func() time.Time { return now }
	attention := func() *status.Attention { t.Helper(); return read(t, b, "s1").Attention }
	waits := func(step, kind, tool string, since time.Time) {
		t.Helper()
		a := attention()
		if a == nil || a.Kind != kind || a.Tool != tool || !a.Since.Equal(since) {
			t.Errorf("%s: attention %+v, want %s %q since %s", step, a, kind, tool, since)
		}
	}
	clear := func(step string) {
		t.Helper()
		if a := attention(); a != nil {
			t.Errorf("%s: attention %+v, want none", step, a)
		}
	}
	handle(t, b, hello("s1"), `{"type":"live","live":{},"run":{"phase":"start"}}`, `{"type":"live","live":{"state":"busy"}}`,
		`{"type":"call","call":{"phase":"start","id":"c1","tool":"bash"}}`)
	clear("a call that nobody asks about")
	handle(t, b, `{"type":"decision","decision":{"id":"c1","decision":"ask"}}`)
	waits("asked", status.AttentionPermission, "bash", t0)
	now = t0.Add(time.Minute)
	handle(t, b, `{"type":"decision","decision":{"id":"c1","decision":"ask"}}`)
	waits("asked again, same wait", status.AttentionPermission, "bash", t0)
	handle(t, b, `{"type":"decision","decision":{"id":"c1","decision":"ask","answer":"allow once"}}`)
	clear("answered")

	// Not answered by jig-core: the call's end ends the wait.
	handle(t, b, `{"type":"call","call":{"phase":"start","id":"c2","tool":"edit"}}`,
		`{"type":"decision","decision":{"id":"c2","decision":"ask"}}`)
	waits("second ask", status.AttentionPermission, "edit", now)
	handle(t, b, `{"type":"call","call":{"phase":"end","id":"c2","tool":"edit","error":true}}`)
	clear("the call ended")
	handle(t, b, `{"type":"decision","decision":{"id":"c2","decision":"ask"}}`)
	clear("an ask for a call that ended")

	// A decision heard before the call's start (another extension's
	// tool_call handler ran first) waits too; a new prompt makes it moot.
	handle(t, b, `{"type":"decision","decision":{"id":"c3","tool":"write","decision":"ask"}}`)
	waits("asked before the start", status.AttentionPermission, "write", now)
	handle(t, b, `{"type":"call","call":{"phase":"start","id":"c3","tool":"write"}}`)
	waits("and it starts", status.AttentionPermission, "write", now)
	handle(t, b, `{"type":"live","live":{},"run":{"phase":"start"}}`)
	clear("a new prompt")

	// The run ends on an error: it waits for the person until the next run.
	now = t0.Add(2 * time.Minute)
	handle(t, b, `{"type":"live","live":{"state":"idle"},"run":{"phase":"end","error":true}}`)
	waits("failed run", status.AttentionError, "", now)
	if s := read(t, b, "s1"); s.State != status.Idle {
		t.Errorf("state %s beside the error, want idle", s.State)
	}
	handle(t, b, `{"type":"live","live":{},"run":{"phase":"start"}}`)
	clear("the next run")
	handle(t, b, `{"type":"live","live":{},"run":{"phase":"end"}}`)
	clear("a run that ended well")

	// A tool whose name is not a name waits nameless: the write is never refused.
	handle(t, b, `{"type":"call","call":{"phase":"start","id":"c4","tool":"rm /tmp/x"}}`, `{"type":"decision","decision":{"id":"c4","decision":"ask"}}`)
	waits("a tool without a name", status.AttentionPermission, "", now)
}
