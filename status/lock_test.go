package status

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/internal/hammer"
)

// 50 writers, each adding its own switch to one session at once: every
// one is in the file after. Before the lock, each read-merge-write could
// be built on a file another writer was replacing, and most were lost.
func TestUpdateLosesNothing(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	const writers = 50
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := d.Update("s", time.Now(), func(prev *Status) (*Status, error) {
				s := &Status{Session: "s", PID: os.Getpid()}
				if prev != nil {
					s = prev
				}
				if s.Switches.Tools == nil {
					s.Switches.Tools = map[string]bool{}
				}
				s.Switches.Tools[fmt.Sprintf("w%d", i)] = false
				return s, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := d.Read("s")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Switches.Tools) != writers {
		t.Errorf("%d of %d switches kept", len(s.Switches.Tools), writers)
	}
}

// A lock file removed while a writer waits for it (gc, or the session
// ending) is let go: the writer locks the file at the path, so two writers
// never hold two different files.
func TestLockFileFollowsReplacement(t *testing.T) {
	path := t.TempDir() + "/x.lock"
	unlock, err := LockFile(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		u, err := LockFile(path, 2*time.Second)
		if err == nil {
			u()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	os.Remove(path)
	// A third writer takes the new file at the path.
	third, err := LockFile(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	unlock() // the waiter now gets the removed file, notices, and waits on the new one
	select {
	case err := <-got:
		t.Fatalf("the waiter got a lock while the third writer held the path's: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	third()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// A lock held past the wait is an error naming the lock, never a silent
// write without it.
func TestLockFileBounded(t *testing.T) {
	path := t.TempDir() + "/x.lock"
	unlock, err := LockFile(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	if _, err := LockFile(path, 50*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("LockFile on a held lock = %v, want ErrLocked", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("waited %s", time.Since(start))
	}
}

// A session's lock file goes when the session has no status file, so
// locks/ does not grow with every session ever seen.
func TestLockFileGoesWithTheSession(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	s := &Status{Session: "s", PID: os.Getpid()}
	if _, err := d.Write(s, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(d.lockPath("s")); err != nil {
		t.Errorf("lock of a live session: %v", err)
	}
	if err := d.Remove("s"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(d.lockPath("s")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock of an ended session still there: %v", err)
	}
}

// A file at a session's name that holds another session id is never
// merged over nor removed.
func TestUpdateRefusesAnotherSessionsFile(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	if _, err := d.Write(&Status{Session: "other", PID: os.Getpid()}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(d.SessionPath("other"), d.SessionPath("mine")); err != nil {
		t.Fatal(err)
	}
	_, err := d.Update("mine", time.Now(), func(prev *Status) (*Status, error) {
		t.Error("build called over another session's file")
		return prev, nil
	})
	if !errors.Is(err, ErrForeign) {
		t.Errorf("Update = %v, want ErrForeign", err)
	}
	if err := d.Remove("mine"); !errors.Is(err, ErrForeign) {
		t.Errorf("Remove = %v, want ErrForeign", err)
	}
}

// TestLockPlanted: a lock that is no regular file — a folder, a fifo, a
// socket, a link — makes the state dir unsafe, naming the lock, at once
// (a folder gave a bare "is a directory" before, exit 7 rather than 3).
// A regular one nobody holds, whatever its mode or age, is simply taken:
// before, one of mode 0444 or 000 refused every write of its session.
func TestLockPlanted(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	if err := d.Ensure(LocksDir); err != nil {
		t.Fatal(err)
	}
	sock := d.lockPath("socket")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hammer.Plant(t, d.lockPath("folder"), hammer.Folder)
	hammer.Plant(t, d.lockPath("fifo"), hammer.Fifo)
	hammer.Plant(t, d.lockPath("link"), hammer.FifoLink)
	for _, name := range []string{"folder", "fifo", "socket", "link"} {
		var err error
		if !hammer.Unblocks(5*time.Second, func() { _, err = d.lockNameWait(name, time.Second) }, d.lockPath(name)) {
			t.Errorf("the lock planted as a %s blocked", name)
			continue
		}
		want := ErrUnsafeDir
		if name == "link" {
			want = ErrSymlink
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), d.lockPath(name)) {
			t.Errorf("the lock planted as a %s: %v, want %v naming it", name, err, want)
		}
	}
	for name, mode := range map[string]os.FileMode{"m000": 0, "m400": 0o400, "m444": 0o444, "m644": 0o644} {
		path := d.lockPath(name)
		if err := os.WriteFile(path, []byte("planted"), mode); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-365 * 24 * time.Hour)
		os.Chtimes(path, old, old)
		unlock, err := d.lockNameWait(name, time.Second)
		if err != nil {
			t.Errorf("a regular lock of mode %o nobody holds: %v", mode, err)
			continue
		}
		unlock()
	}
}
