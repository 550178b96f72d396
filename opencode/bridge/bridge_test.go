package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/opencode"
	"jig/request"
	"jig/status"
)

var testNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// newTestBridge is a bridge into a fresh state dir, its replies kept, pid 1
// (always alive) for its opencode.
func newTestBridge(t testing.TB) (*Bridge, *bytes.Buffer) {
	t.Helper()
	dir, err := status.Locate(func(k string) string {
		if k == "JIG_STATE_DIR" {
			return filepath.Join(t.TempDir(), "state")
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	b := New(dir, func() time.Time { return testNow }, func(string) string { return "" }, "testhost")
	b.Export = func(id string) (*opencode.Exported, error) { return nil, fmt.Errorf("no export in this test") }
	out := &bytes.Buffer{}
	b.out = out
	feed(t, b, `{"type":"hello","pid":1,"opencode":"/bin/opencode"}`)
	return b, out
}

func feed(t testing.TB, b *Bridge, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if err := b.Handle([]byte(l)); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func read(t testing.TB, b *Bridge, id string) *status.Status {
	t.Helper()
	s, err := b.Dir.Read(id)
	if err != nil {
		t.Fatalf("status of %s: %v", id, err)
	}
	return s
}

// One turn as OpenCode 1.18.33 says it: the file holds what each field
// is made of, and the plugin is told where the session's switches are.
func TestTurn(t *testing.T) {
	b, out := newTestBridge(t)
	existing := filepath.Join(t.TempDir(), "old.txt")
	feed(t, b,
		`{"type":"session","session":"ses_a","created":true,"cwd":"/p","variant":"default"}`,
		`{"type":"state","session":"ses_a","state":"busy"}`,
		`{"type":"model","session":"ses_a","agent":"build","model":{"id":"m1","providerID":"mock","name":"Mock","context":128000}}`,
		`{"type":"call","session":"ses_a","phase":"start","id":"c1","tool":"write","path":"/p/new.txt","existed":false}`,
		`{"type":"call","session":"ses_a","phase":"end","id":"c1","tool":"write","existed":false}`,
		`{"type":"call","session":"ses_a","phase":"start","id":"c2","tool":"edit","path":"`+existing+`","existed":true}`,
		`{"type":"call","session":"ses_a","phase":"end","id":"c2","tool":"edit"}`,
		`{"type":"call","session":"ses_a","phase":"start","id":"c3","tool":"bash"}`,
		`{"type":"ask","session":"ses_a","id":"per_1","kind":"permission","tool":"bash","call":"c3"}`,
	)
	s := read(t, b, "ses_a")
	if s.Agent != "opencode" || s.State != status.Busy || s.Model == nil || s.Model.ID != "m1" || *s.Thinking != "default" || s.CWD != "/p" {
		t.Errorf("agent %q state %q model %+v thinking %v cwd %q", s.Agent, s.State, s.Model, s.Thinking, s.CWD)
	}
	if s.Attention == nil || s.Attention.Kind != status.AttentionPermission || s.Attention.Tool != "bash" {
		t.Errorf("attention %+v, want bash's permission", s.Attention)
	}
	actions := map[string]string{}
	for _, o := range s.Outputs {
		actions[o.Path] = o.Action
	}
	if len(actions) != 2 || actions[existing] != status.Changed || actions["/p/new.txt"] != status.Created {
		t.Errorf("outputs %+v, want old.txt changed and new.txt created", s.Outputs)
	}
	feed(t, b,
		`{"type":"replied","session":"ses_a","id":"per_1"}`,
		`{"type":"call","session":"ses_a","phase":"end","id":"c3","tool":"bash","error":true}`,
		`{"type":"message","session":"ses_a","id":"msg_1","tokens":{"total":127,"input":100,"output":5,"reasoning":2,"cache":{"read":20,"write":0}},"cost":0.000114}`,
		`{"type":"message","session":"ses_a","id":"msg_2","tokens":{"total":0,"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0}`,
		`{"type":"message","session":"ses_a","id":"msg_2","tokens":{"total":1230,"input":1000,"output":30,"reasoning":0,"cache":{"read":200,"write":0}},"cost":0.00106}`,
		`{"type":"state","session":"ses_a","state":"idle"}`,
	)
	s = read(t, b, "ses_a")
	if s.Attention != nil || s.State != status.Idle {
		t.Errorf("attention %+v state %s after the reply and idle", s.Attention, s.State)
	}
	if s.Usage.Input != 1100 || s.Usage.Output != 37 || s.Usage.CacheRead != 220 || s.Usage.Cost == nil || fmt.Sprintf("%.6f", *s.Usage.Cost) != "0.001174" {
		t.Errorf("usage %+v cost %v, want OpenCode's sums", s.Usage, *s.Usage.Cost)
	}
	if s.Context.Tokens == nil || *s.Context.Tokens != 1230 || *s.Context.Window != 128000 || s.Context.Percent == nil {
		t.Errorf("context %+v, want the last reply's 1230 of 128000", s.Context)
	}
	if len(s.Recent) != 3 || s.Recent[0].Tool != "bash" || s.Recent[0].Outcome != status.Error || s.Recent[2].Outcome != status.OK {
		t.Errorf("recent %+v", s.Recent)
	}
	lines := bytes.Split(out.Bytes(), []byte("\n"))
	var ready Ready
	var reply SessionReply
	json.Unmarshal(lines[0], &ready)
	json.Unmarshal(lines[1], &reply)
	if ready.Type != "ready" || ready.Switches+"/ses_a.json" != b.kept().File("ses_a") {
		t.Errorf("hello's reply %+v, want the switches folder", ready)
	}
	if reply.Type != "session" || reply.Session != "ses_a" || reply.Switches != b.kept().File("ses_a") {
		t.Errorf("the session's first reply %+v, want its switches file", reply)
	}
	feed(t, b, `{"type":"end","sessions":["ses_a"]}`)
	if _, err := b.Dir.Read("ses_a"); err == nil {
		t.Error("the file is still there after end")
	}
}

// Hostile or wrong lines: refused or made harmless, never a file no
// reader takes, never a value in a file.
func TestHostileLines(t *testing.T) {
	b, _ := newTestBridge(t)
	feed(t, b,
		`{"type":"session","session":"ses_h","created":true}`,
		`{"type":"call","session":"ses_h","phase":"start","id":"c1","tool":"rm -rf / --no-preserve-root"}`,
		`{"type":"call","session":"ses_h","phase":"start","id":"c2","tool":"write","path":"relative.txt","existed":false}`,
		`{"type":"call","session":"ses_h","phase":"end","id":"c2","tool":"write"}`,
		`{"type":"ask","session":"ses_h","id":"q1","kind":"question","tool":"what is the password?"}`,
		`{"type":"ask","session":"ses_h","id":"q2","kind":"shout"}`,
		`{"type":"state","session":"ses_h","state":"exploding"}`,
		`{"type":"from-the-future","session":"ses_h"}`,
	)
	s := read(t, b, "ses_h")
	data, _ := os.ReadFile(b.Dir.SessionPath("ses_h"))
	for _, v := range []string{"rm -rf", "password", "relative.txt"} {
		if bytes.Contains(data, []byte(v)) {
			t.Errorf("the file holds %q:\n%s", v, data)
		}
	}
	if s.Attention == nil || s.Attention.Kind != status.AttentionQuestion || s.Attention.Tool != "" || len(s.Outputs) != 0 {
		t.Errorf("attention %+v outputs %+v", s.Attention, s.Outputs)
	}
	for _, bad := range []string{`{nope`, `{"type":"session","session":"` + strings.Repeat("x", 300) + `"}`,
		`{"type":"hello","pid":-4}`} {
		if err := b.Handle([]byte(bad)); err == nil {
			t.Errorf("%.60s was taken", bad)
		}
	}
	if _, err := b.Dir.Read(strings.Repeat("x", 300)); err == nil {
		t.Error("a session id of 300 bytes got a file")
	}
}

// A request: its switches are kept before it is taken (the plugin refuses
// from them), the rules go to the plugin, the answer waits for them.
func TestRequest(t *testing.T) {
	b, out := newTestBridge(t)
	feed(t, b, `{"type":"session","session":"ses_r","created":true}`)
	for _, tool := range []string{"bash", "read", "edit", "write", "apply_patch"} {
		feed(t, b, `{"type":"tool","name":"`+tool+`"}`)
	}
	send := func(tools map[string]bool) string {
		req := request.New(testNow)
		req.Tools = tools
		if _, err := request.Send(b.Dir, "ses_r", req); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		b.CheckRequests()
		return req.ID
	}
	id := send(map[string]bool{"bash": false})
	kept, _ := os.ReadFile(b.kept().File("ses_r"))
	if !bytes.Contains(kept, []byte(`"bash":false`)) {
		t.Errorf("kept switches %s, want bash off", kept)
	}
	var apply Apply
	json.Unmarshal(out.Bytes(), &apply)
	if apply.Type != "apply" || apply.ID != id || fmt.Sprint(apply.Deny) != "[bash]" || len(apply.Restore) != 0 {
		t.Errorf("apply %+v, want bash denied", apply)
	}
	if s := read(t, b, "ses_r"); s.LastRequest != nil || s.Switches.Tools["bash"] {
		t.Errorf("before the plugin applied it: answer %+v switches %+v", s.LastRequest, s.Switches)
	}
	feed(t, b, `{"type":"applied","session":"ses_r","id":"`+id+`","ok":true}`)
	if s := read(t, b, "ses_r"); !request.Answered(s.LastRequest, id) || !s.LastRequest.OK || s.Tools != (status.Tools{Active: 4, Total: 5}) {
		t.Errorf("answer %+v tools %+v", s.LastRequest, s.Tools)
	}

	// write alone: refused, but offered while edit is on (one permission).
	id = send(map[string]bool{"write": false})
	if out.Len() != 0 {
		t.Errorf("write off sent %s, want no rule", out)
	}
	s := read(t, b, "ses_r")
	if !request.Answered(s.LastRequest, id) || !strings.Contains(s.LastRequest.Message, "under one permission (edit)") {
		t.Errorf("answer %+v", s.LastRequest)
	}
	send(map[string]bool{"edit": false, "apply_patch": false})
	json.Unmarshal(out.Bytes(), &apply)
	if fmt.Sprint(apply.Deny) != "[edit]" {
		t.Errorf("apply %+v, want edit denied once every edit tool is off", apply)
	}
	feed(t, b, `{"type":"applied","session":"ses_r","id":"`+apply.ID+`","ok":false,"reason":"nope"}`)
	if s := read(t, b, "ses_r"); s.LastRequest.OK || !strings.Contains(s.LastRequest.Message, "still offered, and refused") {
		t.Errorf("a refused rule answered %+v", s.LastRequest)
	}
	send(map[string]bool{"bash": true, "write": true})
	apply = Apply{}
	json.Unmarshal(out.Bytes(), &apply)
	if fmt.Sprint(apply.Restore) != "[edit bash]" || len(apply.Deny) != 0 {
		t.Errorf("apply %+v, want bash and edit given back", apply)
	}

	// A reload and a skill: not what OpenCode can do from a plugin.
	req := request.New(testNow)
	req.Reload, req.Skills = true, map[string]bool{"pdf": false}
	request.Send(b.Dir, "ses_r", req)
	b.sessions["ses_r"].pending = nil
	b.CheckRequests()
	if s := read(t, b, "ses_r"); !request.Answered(s.LastRequest, req.ID) || s.LastRequest.OK || !strings.Contains(s.LastRequest.Message, "cannot be reloaded") {
		t.Errorf("reload answered %+v", s.LastRequest)
	}
}

// The end of stdin is opencode gone: every session's file goes.
func TestRunEndsAtEOF(t *testing.T) {
	b, _ := newTestBridge(t)
	in := strings.NewReader(`{"type":"session","session":"ses_1","created":true}` + "\n" +
		`{"type":"session","session":"ses_2","created":true}` + "\n")
	pr, pw := io.Pipe()
	go func() {
		io.Copy(pw, in)
		for i := 0; i < 500; i++ { // until both files are there
			if _, err := b.Dir.Read("ses_2"); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	if err := b.Run(pr, io.Discard, time.Hour); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ses_1", "ses_2"} {
		if _, err := b.Dir.Read(id); err == nil {
			t.Errorf("%s's file is still there", id)
		}
	}
}

// A session first seen without session.created is read back through the
// export, off the loop: its messages' usage, calls and outputs come under
// what this process sees live; hostile names and relative paths stay out.
func TestResumed(t *testing.T) {
	b, _ := newTestBridge(t)
	exported := &opencode.Exported{}
	if err := json.Unmarshal([]byte(`{"info":{"id":"ses_old","directory":"/p","model":{"id":"m","providerID":"p","variant":"high"}},
	"messages":[
	 {"info":{"id":"msg_1","role":"assistant","cost":0.25,"tokens":{"total":300,"input":100,"output":50,"reasoning":0,"cache":{"read":150,"write":0}}},
	  "parts":[{"type":"tool","tool":"write","callID":"c1","state":{"status":"completed","input":{"filePath":"notes.txt"},"metadata":{"exists":false},"time":{"start":1000,"end":2000}}},
	           {"type":"tool","tool":"edit","callID":"c2","state":{"status":"completed","input":{"filePath":"/p/notes.txt"},"time":{"start":3000,"end":4000}}},
	           {"type":"tool","tool":"rm -rf /","callID":"c3","state":{"status":"error"}}]},
	 {"info":{"id":"msg_2","role":"assistant","cost":0.5,"tokens":{"total":400,"input":300,"output":100,"reasoning":0,"cache":{"read":0,"write":0}}},"parts":[]}]}`), exported); err != nil {
		t.Fatal(err)
	}
	b.Export = func(id string) (*opencode.Exported, error) {
		if id != "ses_old" {
			return nil, fmt.Errorf("export of %s", id)
		}
		return exported, nil
	}
	feed(t, b, `{"type":"state","session":"ses_old","state":"busy"}`,
		`{"type":"message","session":"ses_old","id":"msg_2","tokens":{"total":450,"input":350,"output":100},"cost":0.75}`)
	select {
	case r := <-b.resumed:
		b.takeResumed(r)
	case <-time.After(10 * time.Second):
		t.Fatal("the export was never read back")
	}
	s := read(t, b, "ses_old")
	if len(s.Outputs) != 1 || s.Outputs[0].Path != "/p/notes.txt" || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v, want /p/notes.txt created (written, then edited)", s.Outputs)
	}
	if len(s.Recent) != 3 || s.Recent[0].Tool != "?" || s.Recent[0].Outcome != status.Error || s.Recent[2].Tool != "write" {
		t.Errorf("recent %+v", s.Recent)
	}
	// msg_2 as seen live (0.75), msg_1 from the export (0.25).
	if s.Usage.Cost == nil || *s.Usage.Cost != 1 || s.Usage.Input != 450 || *s.Context.Tokens != 450 || *s.Thinking != "high" {
		t.Errorf("usage %+v cost %v context %v thinking %v", s.Usage, *s.Usage.Cost, *s.Context.Tokens, *s.Thinking)
	}
	data, _ := os.ReadFile(b.Dir.SessionPath("ses_old"))
	if bytes.Contains(data, []byte("rm -rf")) {
		t.Errorf("a hostile tool name reached the file:\n%s", data)
	}
}

// A session resumed in another process gets its switches back from where
// the earlier bridge kept them (the plugin refuses from the same file).
func TestKeptSwitchesBack(t *testing.T) {
	b, _ := newTestBridge(t)
	if err := b.kept().Save("ses_k", status.Switches{Tools: map[string]bool{"bash": false}, Skills: map[string]bool{}}); err != nil {
		t.Fatal(err)
	}
	feed(t, b, `{"type":"tool","name":"bash"}`, `{"type":"tool","name":"read"}`, `{"type":"state","session":"ses_k","state":"busy"}`)
	if s := read(t, b, "ses_k"); s.Switches.Tools["bash"] || len(s.Switches.Tools) != 1 || s.Tools != (status.Tools{Active: 1, Total: 2}) {
		t.Errorf("switches %+v tools %+v, want bash off as kept", s.Switches, s.Tools)
	}
}
