package status

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// MaxFileSize bounds what a reader takes from one status file.
const MaxFileSize = 4 << 20

// ErrSymlink is returned when a symlink stands where a jig file goes.
var ErrSymlink = errors.New("a symlink stands where a jig file goes")

// Invalid is a status Validate refused at writing: its writer's input, not
// the disk, is at fault, and nothing was written. Writers validate only here.
type Invalid struct{ Err error }

func (e *Invalid) Error() string { return e.Err.Error() }
func (e *Invalid) Unwrap() error { return e.Err }

// ErrForeign is returned when the file at a session's name belongs to
// another session id: a writer never merges one session over another.
var ErrForeign = errors.New("the file belongs to another session")

// Update is every writer's read-merge-write of a session's file. Holding the
// session's lock, it reads the file (prev: nil when there is none, or when
// it is corrupt and is simply replaced), lets build make the next status
// from it, and writes that as Write says. No other writer of the session
// can come between the read and the write, so no change is lost.
func (d *Dir) Update(session string, now time.Time, build func(prev *Status) (*Status, error)) (bool, error) {
	if err := d.Ensure(SessionsDir); err != nil {
		return false, err
	}
	unlock, err := d.Lock(session)
	if err != nil {
		return false, err
	}
	defer unlock()
	prevData, prev, err := d.readPrev(session)
	if err != nil {
		return false, err
	}
	var mine *Status // build's own copy: prev stays the file as read, to compare with
	if prev != nil {
		mine = prev.Clone()
	}
	s, err := build(mine)
	if err != nil {
		return false, err
	}
	if s.Session != session {
		return false, fmt.Errorf("writing session %q as %q", s.Session, session)
	}
	changed, err := d.write(s, prevData, prev, now)
	if changed && err == nil && d.Changed != nil {
		d.Changed(prev, s)
	}
	return changed, err
}

// Write puts s in its file as the whole new content, under the session's
// lock (see Update, for a write built on the file as it is).
func (d *Dir) Write(s *Status, now time.Time) (bool, error) {
	return d.Update(s.Session, now, func(*Status) (*Status, error) { return s, nil })
}

// readPrev reads a session's file as it is: its bytes and its status, nil
// when missing or corrupt.
func (d *Dir) readPrev(session string) ([]byte, *Status, error) {
	path := d.SessionPath(session)
	data, err := ReadFileNoFollow(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	prev, err := Decode(data)
	if err != nil {
		return data, nil, nil // a corrupt file is simply replaced
	}
	if prev.Session != session {
		return nil, nil, fmt.Errorf("%w: %s holds session %q", ErrForeign, path, Cut(prev.Session))
	}
	return data, prev, nil
}

// write puts s in its file in one step (temp file, fsync, rename), mode
// 0600 whatever the umask, and keeps the terminal index up to date; the
// caller holds the session's lock. It writes only when the content
// changed, ignoring updatedAt, so a reader polling every 2 s sees no churn;
// it reports whether it wrote. s.UpdatedAt is set to now when it writes,
// and to the file's time when nothing changed.
func (d *Dir) write(s *Status, prevData []byte, prev *Status, now time.Time) (bool, error) {
	// What readers check the pid against. Only the writer can know it, and a
	// value merged in from an earlier process's file would be wrong.
	s.PIDStart = ProcessIdentity(s.PID)
	s.settleAttention(prev, now)
	s.Normalize()
	if err := s.Validate(); err != nil {
		return false, &Invalid{Err: err}
	}
	// Every folder the index will use is checked before the file is
	// replaced: a refused write changes nothing.
	if err := d.checkIndexDirs(s); err != nil {
		return false, err
	}
	wasFresh := d.fresh() // before any change of ours
	if prev != nil {
		if s.PID != prev.PID && (s.StartedAt.IsZero() || s.StartedAt.Equal(prev.StartedAt)) {
			// Another process took the session over (resumed after a
			// crash): its file starts now, or the pid check would take
			// the new process for a reused pid.
			s.StartedAt = time.Time{}
		} else if s.StartedAt.IsZero() {
			s.StartedAt = prev.StartedAt
		}
		s.UpdatedAt = prev.UpdatedAt
		if s.sameAs(prev) {
			// nothing changed (Raw is the file as it is, not what s was
			// built from). A status that differs only in form (a time in
			// another zone) is written again: one write, never a loss.
			s.raw = prevData
			return false, d.index(s, prev, wasFresh)
		}
	}
	s.UpdatedAt = now.UTC()
	if s.StartedAt.IsZero() {
		s.StartedAt = s.UpdatedAt
	}
	data, err := Encode(s)
	if err != nil {
		return false, err
	}
	if len(data) > MaxFileSize {
		// Bound keeps every field short enough that this cannot happen; a
		// file readers would refuse is never written.
		return false, fmt.Errorf("the status would be %d bytes, over the %d readers take", len(data), MaxFileSize)
	}
	if err := ReplaceFile(d.SessionPath(s.Session), data); err != nil {
		return false, err
	}
	s.raw = data
	return true, d.index(s, prev, wasFresh)
}

// WriteFileAtomic writes data to path in one step with mode 0600, in the
// same folder, refusing to replace a symlink, and flushes it to the disk
// before it replaces the file: what a person asked for (a request, a
// switch kept, a setting) outlives a crash.
func WriteFileAtomic(path string, data []byte) error { return replaceFile(path, data, true) }

// ReplaceFile writes data to path in one step as WriteFileAtomic does, but
// does not wait for the disk: for a file that says what a live process is
// doing (a session's status, its cursor), rewritten at its next event and
// void after a crash, when its process is gone too. A hook that writes
// blocks its agent, and a flush is a millisecond or more of it (several
// on a busy disk); a reader still sees the old file or the new one whole.
func ReplaceFile(path string, data []byte) error { return replaceFile(path, data, false) }

func replaceFile(path string, data []byte, flush bool) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s", ErrSymlink, path)
	}
	fd, temp, err := createTemp(path)
	if err != nil {
		return err
	}
	op := "write"
	err = writeAll(fd, data)
	if err == nil && flush {
		op, err = "sync", unix.Fsync(fd)
	}
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		op, err = "close", cerr
	}
	if err != nil {
		unix.Unlink(temp)
		return &fs.PathError{Op: op, Path: temp, Err: err}
	}
	if err := os.Rename(temp, path); err != nil {
		unix.Unlink(temp)
		return err
	}
	return nil
}

// writeAll writes data to fd, all of it.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// createTemp makes the temp file of a write to path: beside it, named a
// dot, its name and random digits (isWriteTemp), mode 0600 whatever the
// umask. Plain system calls, as openRaw's reads: a file written once and
// closed has no use for Go's poller, whose registering costs four calls.
func createTemp(path string) (int, string, error) {
	dir, base := filepath.Split(path)
	for try := 0; ; try++ {
		name := filepath.Join(dir, "."+base+strconv.FormatInt(rand.Int64(), 10))
		fd, err := unix.Open(name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) && try < 10000 {
			continue
		}
		if err != nil {
			return -1, "", &fs.PathError{Op: "open", Path: name, Err: err}
		}
		if err := unix.Fchmod(fd, 0o600); err != nil {
			unix.Close(fd)
			unix.Unlink(name)
			return -1, "", &fs.PathError{Op: "chmod", Path: name, Err: err}
		}
		return fd, name, nil
	}
}

// ReadFileNoFollow reads a regular file without following a symlink at its
// path, up to MaxFileSize (OpenFile).
func ReadFileNoFollow(path string) ([]byte, error) {
	return readInto(path, NoLinks, MaxFileSize, nil)
}

// Read returns the status of a session id.
func (d *Dir) Read(session string) (*Status, error) {
	return readStatus(d.SessionPath(session))
}

func readStatus(path string) (*Status, error) {
	data, err := ReadFileNoFollow(path)
	if err != nil {
		return nil, err
	}
	s, err := Decode(data)
	if err != nil {
		// A future schema may change a field's type: say it is the schema.
		var head struct {
			Schema any `json:"schema"`
		}
		if json.Unmarshal(data, &head) == nil && head.Schema != float64(Schema) {
			return nil, fmt.Errorf("%s: schema %v, this jig reads schema %d", path, head.Schema, Schema)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %d, this jig reads schema %d", path, s.Schema, Schema)
	}
	return s, nil
}

// Remove deletes a session's file and its index entries. A missing file is
// not an error.
func (d *Dir) Remove(session string) error {
	if err := d.Check(SessionsDir, TerminalsDir); err != nil {
		return err
	}
	unlock, err := d.Lock(session)
	if err != nil {
		return err
	}
	defer unlock()
	return d.remove(session)
}

// remove is Remove for a caller that holds the session's lock.
func (d *Dir) remove(session string) error {
	wasFresh := d.fresh()
	path := d.SessionPath(session)
	s, _ := readStatus(path)
	if s != nil && s.Session != session {
		return fmt.Errorf("%w: %s holds session %q", ErrForeign, path, Cut(s.Session))
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if s != nil {
		d.unindex(s, nil)
		if d.Changed != nil {
			d.Changed(s, nil)
		}
	}
	os.Remove(d.Path(TerminalsDir, indexedDir, SafeName(session)))
	d.restamp(wasFresh)
	return nil
}
