package status

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// LocksDir holds one lock file per session: every writer of a session's
// status file (the bridge, `jig session write`, a request's answer, gc)
// holds it from reading the file to renaming the new one in, so no write is
// built on a file another writer is about to replace.
const LocksDir = "locks"

// LockWait bounds how long a writer waits for a lock. A write holds it for
// a small read, a merge and a rename: milliseconds.
const LockWait = 5 * time.Second

// ErrLocked is returned when a lock stays held past its wait.
var ErrLocked = errors.New("another writer holds the lock")

// LockFile takes an exclusive lock on the file at path (created 0600, never
// through a symlink), polling without blocking so the wait is bounded. The
// lock is on the file that stays at path: one removed by gc while we waited
// is let go and the new one taken, so two holders never lock two files.
//
// Any regular file of ours at path is a lock: one a killed writer left, or
// one planted with any mode or age, is taken at once when nobody holds it
// (flock needs no write access; a file we may not even read is given 0600
// first). Anything else there — a folder, a fifo, a socket, a link, another
// user's file — makes the state dir unsafe (ErrUnsafeDir, ErrSymlink): it
// was not made by jig, and no writer can tell who holds it.
func LockFile(path string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := openLock(path)
		if err != nil {
			return nil, err
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil || (!errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR)) {
				break
			}
			if time.Now().After(deadline) {
				f.Close()
				return nil, fmt.Errorf("%w: %s for %s", ErrLocked, path, wait)
			}
			time.Sleep(time.Millisecond)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if samePath(f, path) {
			return func() { f.Close() }, nil // closing the file drops the lock
		}
		f.Close() // removed or replaced while we waited: lock the one there now
	}
}

// openLock opens the lock file at path, creating it, read-only: flock takes
// an exclusive lock on any open file.
func openLock(path string) (*os.File, error) {
	const flags = os.O_RDONLY | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrPermission) && ownRegularFile(path) && os.Chmod(path, 0o600) == nil {
		f, err = os.OpenFile(path, flags, 0o600) // a mode we may not read, planted or left
	}
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, fmt.Errorf("%w: %s", ErrSymlink, path)
	case errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.EOPNOTSUPP):
		return nil, notLock(path) // a folder; a socket (ENXIO, EOPNOTSUPP on macOS)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%w: %s is not ours to lock: %v", ErrUnsafeDir, path, err)
	case err != nil:
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, notLock(path)
	}
	return f, nil
}

func notLock(path string) error {
	return fmt.Errorf("%w: the lock %s is not a regular file; remove it", ErrUnsafeDir, path)
}

// ownRegularFile reports whether path is a regular file of this user's.
func ownRegularFile(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	uid, ok := ownerOf(fi)
	return !ok || uid == myUID()
}

// samePath reports whether the open file f is still the file at path.
func samePath(f *os.File, path string) bool {
	held, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Lstat(path)
	return err == nil && os.SameFile(held, now)
}

// lockPath is the lock file of a session's safe name.
func (d *Dir) lockPath(name string) string {
	return d.Path(LocksDir, name+".lock")
}

// Lock takes the write lock of a session, waiting at most LockWait.
func (d *Dir) Lock(session string) (unlock func(), err error) {
	return d.lockName(SafeName(session))
}

func (d *Dir) lockName(name string) (func(), error) {
	return d.lockNameWait(name, LockWait)
}

// tryLockName takes a session's lock only if nobody holds it, for gc: a
// held lock means a writer is at work, and gc leaves that session be.
func (d *Dir) tryLockName(name string) (func(), bool) {
	unlock, err := d.lockNameWait(name, 0)
	return unlock, err == nil
}

// lockNameWait takes the lock of a safe name. Letting it go removes the
// lock file when the session has no status file (it ended, or its first
// write was refused), so locks/ holds no more files than sessions/.
func (d *Dir) lockNameWait(name string, wait time.Duration) (func(), error) {
	if err := d.Ensure(LocksDir); err != nil {
		return nil, err
	}
	path := d.lockPath(name)
	unlock, err := LockFile(path, wait)
	if err != nil {
		return nil, err
	}
	return func() {
		if _, err := os.Lstat(d.Path(SessionsDir, name+".json")); errors.Is(err, fs.ErrNotExist) {
			os.Remove(path) // while held: a waiter notices (LockFile) and takes a new one
		}
		unlock()
	}, nil
}
