package bridge

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
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
	// Fields not named again keep their values.
	handle(t, b, `{"type":"live","live":{"state":"idle"}}`)
	if s := read(t, b, "s1"); s.State != status.Idle || s.Model == nil || s.Tools.Total != 7 {
		t.Errorf("after idle: %+v", s)
	}
}

func TestEndRemovesTheFileUnlessAReloadFollows(t *testing.T) {
	b, _ := newTestBridge(t)
	handle(t, b, hello("s1"), `{"type":"live","live":{"state":"idle"}}`)
	if done, err := b.Handle([]byte(`{"type":"end","keep":true}`)); !done || err != nil {
		t.Fatalf("end keep: done %v err %v", done, err)
	}
	started := read(t, b, "s1").StartedAt

	// The reloaded extension's bridge takes the same file on.
	b2, _ := newTestBridge(t)
	b2.Dir = b.Dir
	b2.Now = func() time.Time { return t0.Add(time.Hour) }
	handle(t, b2, hello("s1"), `{"type":"live","live":{"state":"busy"}}`)
	if s := read(t, b2, "s1"); !s.StartedAt.Equal(started) {
		t.Errorf("startedAt %v after a reload, want %v", s.StartedAt, started)
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
	handle(t, b, hello("s1"))
	for name, want := range map[string]bool{"crashed": false, "elsewhere": true, "alive": true, "s1": true} {
		_, err := os.Stat(b.Dir.SessionPath(name))
		if (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", name, err == nil, want)
		}
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
	handle(t, b, `{"type":"from-the-future"}`)
}
