package request

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"jig/status"
)

// Path is the request file of a session: the status file's name under
// requests/.
func Path(dir *status.Dir, session string) string {
	return dir.Path(status.RequestsDir, status.SafeName(session)+".json")
}

// lockName is the one lock file of requests/: writers hold it while they
// read, merge and replace a waiting request; takers while they claim one.
const lockName = ".lock"

// lock takes the requests folder's lock, waiting at most status.LockWait;
// it is held for the time of a small read and a rename.
func lock(dir *status.Dir) (unlock func(), err error) {
	return status.LockFile(dir.Path(status.RequestsDir, lockName), status.LockWait)
}

// ErrFull is returned when a request, merged with the one waiting, would
// be larger than a session reads: the sender tries again once it is taken.
var ErrFull = fmt.Errorf("the request would be larger than %d bytes; try again once the session has taken the waiting one", MaxSize)

// Send writes req for session. When a request is still waiting there, req
// is merged into it (see [Merge]) and the merged request is written; Send
// returns what it wrote. req's own id is always the written one's id.
func Send(dir *status.Dir, session string, req *Request) (*Request, error) {
	if err := dir.Ensure(status.RequestsDir); err != nil {
		return nil, err
	}
	unlock, err := lock(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path := Path(dir, session)
	out := req
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		// Junk where the request goes (a planted symlink, a folder): it is
		// no request; remove the name itself, never what it points to.
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("%s is not a regular file and cannot be removed: %w", path, err)
		}
	default:
		data, err := status.ReadFileNoFollow(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err == nil {
			if waiting, perr := Parse(data); perr == nil {
				out = Merge(waiting, req)
			} // a bad waiting file is no request: it is replaced
		}
	}
	data, err := Encode(out)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, ErrFull
	}
	if err := status.WriteFileAtomic(path, data); err != nil {
		return nil, err
	}
	return out, nil
}

// Pending reads the request waiting for session without taking it: nil, nil
// when none waits; a *BadError when the file is not a good request.
func Pending(dir *status.Dir, session string) (*Request, error) {
	if err := dir.Check(status.RequestsDir); err != nil {
		return nil, err
	}
	data, err := status.ReadFileNoFollow(Path(dir, session))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, status.ErrSymlink):
		return nil, &BadError{Reason: "a symlink, not a file"}
	case err != nil:
		return nil, &BadError{Reason: err.Error()}
	}
	return Parse(data)
}

// Take claims the request waiting for session and reads it. It returns:
//   - nil, nil, nil when none waits (or another taker got it first);
//   - the request, nil, nil for a good one;
//   - nil, answer, *BadError for a bad one, which is removed; answer is
//     the ok:false answer for lastRequest when the id could be read, nil
//     when not;
//   - nil, nil, err when the folder cannot be used.
//
// The claim is a rename to a private name, so each file is taken once.
func Take(dir *status.Dir, session string, now time.Time) (*Request, *status.Answer, error) {
	if err := dir.Check(status.RequestsDir); err != nil {
		return nil, nil, err
	}
	path := Path(dir, session)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil // the cheap, common case: nothing waits
	}
	claim := claimName(dir, session)
	unlock, err := lock(dir)
	if err != nil {
		return nil, nil, err
	}
	err = os.Rename(path, claim)
	unlock()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(claim) // a file, a link or planted junk: never followed
	req, err := readClaim(claim)
	if err != nil {
		return badAnswer(err, now)
	}
	return req, nil, nil
}

// TakeKept is Take for a host that keeps its switches outside the request
// folder (Kept) and decides a call from the request and those switches
// without a lock: under the requests lock, so no request is merged in
// meanwhile, it reads the waiting request and gives it to keep, which
// saves the switches it makes; only when keep succeeds does the request
// leave requests/. So a switch is always in the waiting request or in
// what keep saved, never in neither. keep's error leaves the request
// waiting and comes back. A bad request is claimed and answered as Take
// does, keep not called.
func TakeKept(dir *status.Dir, session string, now time.Time, keep func(*Request) error) (*Request, *status.Answer, error) {
	if err := dir.Check(status.RequestsDir); err != nil {
		return nil, nil, err
	}
	path := Path(dir, session)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil // the cheap, common case: nothing waits
	}
	unlock, err := lock(dir)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil // taken before the lock was ours
	}
	req, err := readClaim(path)
	if err == nil {
		if err := keep(req); err != nil {
			return nil, nil, err
		}
	}
	claim := claimName(dir, session)
	if err := os.Rename(path, claim); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	os.RemoveAll(claim) // a file, a link or planted junk: never followed
	if err == nil {
		return req, nil, nil
	}
	return badAnswer(err, now)
}

// badAnswer is Take's answer to a request file that is no request: the
// *BadError, with an ok:false answer when its id could be read.
func badAnswer(err error, now time.Time) (*Request, *status.Answer, error) {
	var bad *BadError
	if !errors.As(err, &bad) {
		bad = &BadError{Reason: err.Error()}
	}
	if bad.ID == "" {
		return nil, nil, bad
	}
	return nil, &status.Answer{ID: bad.ID, OK: false, Message: bad.Error(), At: now.UTC()}, bad
}

// claimName is a private name in requests/: hidden (no reader lists it)
// and random (no two takers share it).
func claimName(dir *status.Dir, session string) string {
	var b [6]byte
	rand.Read(b[:])
	return dir.Path(status.RequestsDir, ".claim-"+status.SafeName(session)+"-"+hex.EncodeToString(b[:]))
}

// readClaim reads a claimed file without following a link or blocking on a
// fifo, and refuses what a reader of ours would not have written.
func readClaim(path string) (*Request, error) {
	f, fi, err := status.OpenFile(path, status.NoLinks, status.AnySize) // the size is fileProblem's to say
	switch {
	case errors.Is(err, status.ErrSymlink):
		return nil, &BadError{Reason: "a symlink, not a file"}
	case errors.Is(err, status.ErrNotRegular):
		return nil, &BadError{Reason: "not a regular file"}
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &BadError{Reason: "cannot be read: " + err.Error()}
	}
	defer f.Close()
	if reason := fileProblem(fi, os.Getuid()); reason != "" {
		return nil, &BadError{Reason: reason}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, &BadError{Reason: "cannot be read: " + err.Error()}
	}
	return Parse(data)
}

// fileProblem says why a claimed file is no request: not a regular file,
// another user's, too large; "" when it may be read.
func fileProblem(fi fs.FileInfo, uid int) string {
	if !fi.Mode().IsRegular() {
		return "not a regular file"
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return fmt.Sprintf("owned by uid %d, not %d", st.Uid, uid)
	}
	if fi.Size() > MaxSize {
		return fmt.Sprintf("larger than %d bytes", MaxSize)
	}
	return ""
}

// Answered reports whether a status file's lastRequest answers the request
// id: its own id, or one merged into it (covers).
func Answered(a *status.Answer, id string) bool {
	if a == nil {
		return false
	}
	if a.ID == id {
		return true
	}
	for _, c := range a.Covers {
		if c == id {
			return true
		}
	}
	return false
}
