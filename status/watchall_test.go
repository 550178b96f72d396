package status

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// allRun is one WatchAll in the background: each call of seen comes on
// events as "first:SESSION:STATE" or "SESSION:STATE", each end as
// "end:SESSION".
type allRun struct {
	events chan string
	done   chan error
}

func startAll(t *testing.T, dir *Dir) *allRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := &allRun{events: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		r.done <- dir.WatchAll(ctx, Liveness{}, func(s *Status, first bool) error {
			prefix := ""
			if first {
				prefix = "first:"
			}
			r.events <- prefix + s.Session + ":" + s.State
			return nil
		}, func(session string) error {
			r.events <- "end:" + session
			return nil
		})
	}()
	return r
}

func (r *allRun) next(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-r.events:
		if got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	case err := <-r.done:
		t.Fatalf("WatchAll ended (%v) before %q", err, want)
	case <-time.After(10 * time.Second):
		t.Fatalf("no %q within 10s", want)
	}
}

func (r *allRun) quiet(t *testing.T, what string) {
	t.Helper()
	select {
	case got := <-r.events:
		t.Fatalf("%s: got %q, want nothing", what, got)
	case <-time.After(300 * time.Millisecond):
	}
}

// WatchAll sees the live sessions there at the start, every change of any
// session's file, sessions that start later, and each end (file removed,
// process gone) once; a dead session's file, a write that changed nothing
// and a file that is not a status are nothing.
func TestWatchAll(t *testing.T) {
	for _, mode := range []string{"events", "polling"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "polling" {
				old := newWatcher
				newWatcher = func() (*fsnotify.Watcher, error) { return nil, errors.New("no inotify here") }
				t.Cleanup(func() { newWatcher = old })
			}
			oldCheck := watchLiveCheck
			watchLiveCheck = 100 * time.Millisecond
			t.Cleanup(func() { watchLiveCheck = oldCheck })
			dir := &Dir{Root: t.TempDir()}
			now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
			write := func(session string, pid int, state string) {
				t.Helper()
				if _, err := dir.Write(&Status{Session: session, PID: pid, State: state}, now); err != nil {
					t.Fatal(err)
				}
				now = now.Add(time.Second)
			}
			write("a", os.Getpid(), Idle)
			write("dead", 999999999, Busy)
			r := startAll(t, dir)
			r.next(t, "first:a:idle")
			r.quiet(t, "a dead session's file")

			write("b", os.Getpid(), Busy)
			r.next(t, "b:busy")
			write("a", os.Getpid(), Idle)
			r.quiet(t, "a write that changed nothing")
			write("a", os.Getpid(), Busy)
			r.next(t, "a:busy")
			if err := os.WriteFile(dir.SessionPath("junk"), []byte(`{"schema": 2, "state": {}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			r.quiet(t, "a newer schema's file")

			if err := dir.Remove("b"); err != nil {
				t.Fatal(err)
			}
			r.next(t, "end:b")

			// a session whose process ends without removing its file
			child := exec.Command("sleep", "60")
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			write("c", child.Process.Pid, Busy)
			r.next(t, "c:busy")
			child.Process.Kill()
			child.Wait()
			r.next(t, "end:c")
			r.quiet(t, "an end said once")
		})
	}
}
