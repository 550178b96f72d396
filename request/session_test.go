package request

import (
	"errors"
	"os"
	"testing"
	"time"

	"jig/status"
)

// writeSession gives session s a status file, its process this test's.
func writeSession(t *testing.T, dir *status.Dir) {
	t.Helper()
	if _, err := dir.Write(&status.Status{Schema: 1, Session: "s", PID: os.Getpid(), State: status.Idle}, now); err != nil {
		t.Fatal(err)
	}
}

// Decide answers in the status file under its lock, and leaves the
// request waiting for a session that has no status file yet.
func TestDecide(t *testing.T) {
	dir := newDir(t)
	r := New(now)
	r.Tools["grep"] = true
	Send(dir, "s", r)
	if _, err := Decide(dir, "s", have, now); !errors.Is(err, status.ErrNoSession) {
		t.Fatalf("no status file: Decide = %v, want ErrNoSession", err)
	}
	if p, _ := Pending(dir, "s"); p == nil || p.ID != r.ID {
		t.Fatalf("the request is gone without an answer: %+v", p)
	}
	writeSession(t, dir)
	out, err := Decide(dir, "s", have, now)
	if err != nil || out == nil || !out.Answer.OK {
		t.Fatalf("Decide = %+v, %v", out, err)
	}
	s, err := dir.Read("s")
	if err != nil || !Answered(s.LastRequest, r.ID) || !s.Switches.Tools["grep"] {
		t.Fatalf("status after Decide: %+v, %v", s, err)
	}
	if out, err := Decide(dir, "s", have, now); out != nil || err != nil {
		t.Fatalf("nothing waiting: Decide = %+v, %v", out, err)
	}
}

// A bad request taken by a hook is answered ok:false in the status file,
// so its sender's --wait hears it; it still comes back as bad input.
func TestTakeAnswering(t *testing.T) {
	dir := newDir(t)
	writeSession(t, dir)
	dir.Ensure(status.RequestsDir)
	writeFile(`{"schema":2,"id":"r9"}`)(t, Path(dir, "s"))
	req, err := TakeAnswering(dir, "s", now)
	if req != nil || !errors.Is(err, status.ErrBadInput) || !errors.As(err, new(*BadError)) {
		t.Fatalf("TakeAnswering = %+v, %v; want a bad request", req, err)
	}
	s, _ := dir.Read("s")
	if s.LastRequest == nil || s.LastRequest.ID != "r9" || s.LastRequest.OK {
		t.Fatalf("lastRequest %+v, want r9 refused", s.LastRequest)
	}
}

// Await returns the answer, or says the session ended or time ran out.
func TestAwait(t *testing.T) {
	dir := newDir(t)
	writeSession(t, dir)
	live := status.Liveness{}
	if _, err := Await(dir, "s", "r1", live, 100*time.Millisecond); !errors.Is(err, status.ErrTimeout) {
		t.Fatalf("no answer: Await = %v, want ErrTimeout", err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		dir.Update("s", now, func(s *status.Status) (*status.Status, error) {
			s.LastRequest = &status.Answer{ID: "r2", OK: true, Message: "done", Covers: []string{"r1"}}
			return s, nil
		})
	}()
	a, err := Await(dir, "s", "r1", live, 10*time.Second)
	if err != nil || a.Message != "done" {
		t.Fatalf("Await = %+v, %v; want the answer covering r1", a, err)
	}
	if err := dir.Remove("s"); err != nil {
		t.Fatal(err)
	}
	if _, err := Await(dir, "s", "r3", live, 10*time.Second); !errors.Is(err, status.ErrNoSession) {
		t.Fatalf("session gone: Await = %v, want ErrNoSession", err)
	}
}

func TestParseSwitches(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want map[string]bool
		bad  bool
	}{
		{args: []string{"bash", "off"}, want: map[string]bool{"bash": false}},
		{args: []string{"bash=off", "grep=on"}, want: map[string]bool{"bash": false, "grep": true}},
		{args: nil, bad: true},
		{args: []string{"bash", "5s"}, bad: true},
		{args: []string{"bash=maybe"}, bad: true},
		{args: []string{"a b=on"}, bad: true},
	} {
		got, err := ParseSwitches(tc.args)
		if tc.bad != (err != nil) || !tc.bad && len(got) != len(tc.want) {
			t.Errorf("ParseSwitches(%q) = %v, %v", tc.args, got, err)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("ParseSwitches(%q)[%s] = %v, want %v", tc.args, k, got[k], v)
			}
		}
	}
}
