package status

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchRun is one Watch running in the background: the state of each
// status it reports comes on states, its result on done.
type watchRun struct {
	states chan string
	done   chan error
	cancel context.CancelFunc
}

func startWatch(t *testing.T, dir *Dir, session string) *watchRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRun{states: make(chan string, 100), done: make(chan error, 1), cancel: cancel}
	t.Cleanup(cancel)
	go func() {
		w.done <- dir.Watch(ctx, session, Liveness{}, func(s *Status, data []byte) error {
			if s.Raw() == nil || !bytes.Equal(s.Raw(), data) {
				t.Errorf("status and bytes disagree")
			}
			w.states <- s.State
			return nil
		})
	}()
	return w
}

func (w *watchRun) next(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-w.states:
		if got != want {
			t.Fatalf("state %q, want %q", got, want)
		}
	case err := <-w.done:
		t.Fatalf("watch ended (%v) before %s", err, want)
	case <-time.After(10 * time.Second):
		t.Fatalf("no status %s within 10s", want)
	}
}

func (w *watchRun) quiet(t *testing.T, d time.Duration, what string) {
	t.Helper()
	select {
	case got := <-w.states:
		t.Fatalf("%s: a status %q, want none", what, got)
	case err := <-w.done:
		t.Fatalf("%s: watch ended (%v)", what, err)
	case <-time.After(d):
	}
}

func (w *watchRun) end(t *testing.T) error {
	t.Helper()
	select {
	case err := <-w.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not end within 10s")
	}
	return nil
}

func writeState(t *testing.T, dir *Dir, state string) {
	t.Helper()
	if _, err := dir.Write(&Status{Schema: 1, Session: "w1", PID: os.Getpid(), State: state}, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// watchModes runs a test with file events and with polling, its checks
// made quick.
func watchModes(t *testing.T, test func(t *testing.T)) {
	for _, mode := range []string{"inotify", "poll"} {
		t.Run(mode, func(t *testing.T) {
			oldNew, oldPoll, oldCheck := newWatcher, watchPoll, watchLiveCheck
			t.Cleanup(func() { newWatcher, watchPoll, watchLiveCheck = oldNew, oldPoll, oldCheck })
			watchPoll, watchLiveCheck = 50*time.Millisecond, 50*time.Millisecond
			if mode == "poll" {
				newWatcher = func() (*fsnotify.Watcher, error) { return nil, errors.New("no inotify here") }
			}
			test(t)
		})
	}
}

// One status per change, none while nothing changes, the end when the
// file goes.
func TestWatch(t *testing.T) {
	watchModes(t, func(t *testing.T) {
		dir := &Dir{Root: t.TempDir()}
		writeState(t, dir, Idle)
		w := startWatch(t, dir, "w1")
		w.next(t, Idle)
		writeState(t, dir, Busy)
		w.next(t, Busy)
		writeState(t, dir, Busy) // the same status: the file is not rewritten
		w.quiet(t, 300*time.Millisecond, "an unchanged status")
		writeState(t, dir, Idle)
		w.next(t, Idle)
		if err := dir.Remove("w1"); err != nil {
			t.Fatal(err)
		}
		if err := w.end(t); err != nil {
			t.Errorf("Watch = %v, want nil when the session ends", err)
		}
	})
}

// A session whose process is gone without removing its file has ended.
func TestWatchProcessGone(t *testing.T) {
	watchModes(t, func(t *testing.T) {
		dir := &Dir{Root: t.TempDir()}
		writeState(t, dir, Idle)
		w := startWatch(t, dir, "w1")
		w.next(t, Idle)
		// the file now names a process that is not this one
		data, _ := os.ReadFile(dir.SessionPath("w1"))
		data = bytes.Replace(data, []byte(`"pidStart": "`), []byte(`"pidStart": "other-`), 1)
		data = bytes.Replace(data, []byte(`"state": "idle"`), []byte(`"state": "busy"`), 1)
		if err := WriteFileAtomic(dir.SessionPath("w1"), data); err != nil {
			t.Fatal(err)
		}
		w.next(t, Busy)
		if err := w.end(t); err != nil {
			t.Errorf("Watch = %v, want nil once the process is gone", err)
		}
	})
}

// The state dir moved away and made again (issue 22): Watch follows the
// new sessions folder, where the session's writer goes on, and a file not
// there yet is not the session's end.
func TestWatchStateDirReplaced(t *testing.T) {
	watchModes(t, func(t *testing.T) {
		root := t.TempDir() + "/state"
		dir := &Dir{Root: root}
		writeState(t, dir, Idle)
		w := startWatch(t, dir, "w1")
		w.next(t, Idle)
		if err := os.Rename(root, root+".old"); err != nil {
			t.Fatal(err)
		}
		w.quiet(t, 300*time.Millisecond, "the state dir moved away")
		if err := dir.Ensure(SessionsDir); err != nil {
			t.Fatal(err)
		}
		w.quiet(t, 300*time.Millisecond, "an empty state dir made again")
		writeState(t, dir, Busy)
		w.next(t, Busy)
		writeState(t, dir, Idle)
		w.next(t, Idle)
		// the old folder is no longer watched
		old := &Dir{Root: root + ".old"}
		writeState(t, old, Busy)
		w.quiet(t, 300*time.Millisecond, "a write into the old folder")
		if err := dir.Remove("w1"); err != nil {
			t.Fatal(err)
		}
		if err := w.end(t); err != nil {
			t.Errorf("Watch = %v, want nil when the session ends", err)
		}
	})
}
