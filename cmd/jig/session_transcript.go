package main

import (
	"errors"
	"io/fs"
	"path/filepath"

	"jig/status"
	"jig/transcript"
)

// cursorsDir holds, per session, where `jig session write --transcript`
// stopped reading, so a hook after every tool call reads only what Pi
// appended since.
const cursorsDir = status.CursorsDir

// badTranscript is an error in the transcript file given (exit 4), not in
// jig's own state.
type badTranscript struct{ error }

func (b badTranscript) Unwrap() error { return b.error }

// readTranscript reads Pi's session file from the saved cursor on, derives
// the status fields and saves the new cursor (0600, one step). The file
// must be a Pi session, by the rule jig pi show uses (UpdateSession). One
// exception: with the session's id given, a file that does not exist yet
// gives no fields and no error, since Pi names its session file before it
// writes it (at the first reply).
func (e *env) readTranscript(dir *status.Dir, id, file string) (*transcript.Derived, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, badTranscript{err}
	}
	idGiven := id != ""
	if !idGiven {
		h, err := transcript.ReadHeader(abs)
		if err != nil {
			return nil, badTranscript{err}
		}
		id = h.ID
	}
	cursorPath := cursorPath(dir, id)
	var r *transcript.Reader
	if err := dir.Check(cursorsDir); err != nil {
		return nil, err
	}
	data, err := status.ReadFileNoFollow(cursorPath)
	switch {
	case err == nil:
		r, _ = transcript.RestoreReader(abs, data) // a stale or foreign cursor is dropped
	case errors.Is(err, status.ErrSymlink):
		return nil, err
	case !errors.Is(err, fs.ErrNotExist):
		// an unreadable cursor costs one full read, nothing more
	}
	if r == nil {
		r = transcript.NewReader(abs)
	}
	r.Home = e.getenv("HOME")
	if err := r.UpdateSession(); err != nil {
		if idGiven && errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, badTranscript{err}
	}
	d := r.Derive(transcript.NewRepoFinder().Repo)
	d.File = abs
	data, err = r.MarshalCursor()
	if err != nil {
		return nil, err
	}
	if err := dir.Ensure(cursorsDir); err != nil {
		return nil, err
	}
	if err := status.WriteFileAtomic(cursorPath, data); err != nil {
		return nil, err
	}
	return d, nil
}

// cursorPath is a session's cursor file.
func cursorPath(dir *status.Dir, id string) string {
	return dir.Path(cursorsDir, status.SafeName(id)+".json")
}
