package writer

import (
	"errors"
	"io/fs"

	"jig/status"
)

// A session's transcript cursor is where its last writer stopped reading:
// offsets, counts and hashes, never a value (the Source's MarshalCursor).
// It lets a hook after every tool call read only what was appended since.

// cursorPath is a session's cursor file.
func (w *Writer) cursorPath(session string) string {
	return w.Dir.Path(status.CursorsDir, status.SafeName(session)+".json")
}

// loadCursor is the session's saved cursor, nil when there is none. A
// cursors folder jig must not trust, or a symlink in the cursor's place, is
// an error; an unreadable cursor costs one full read, nothing more.
func (w *Writer) loadCursor(session string) ([]byte, error) {
	if err := w.Dir.Check(status.CursorsDir); err != nil {
		return nil, err
	}
	data, err := status.ReadFileNoFollow(w.cursorPath(session))
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, status.ErrSymlink):
		return nil, err
	case errors.Is(err, fs.ErrNotExist):
	}
	return nil, nil
}

// saveCursor saves where the transcript's reading stopped (0600, one step).
// A cursor not saved costs one full read next time, nothing more.
func (w *Writer) saveCursor(session string, data []byte) {
	if w.Dir.Ensure(status.CursorsDir) != nil {
		return
	}
	status.ReplaceFile(w.cursorPath(session), data)
}

// Cursor is the session's saved cursor (nil: none, or not to be trusted),
// for an adapter that must wait for its agent's transcript: it reads ahead
// from here before Write, since Write never waits under the lock. Under the
// lock, Source.Derive is given the cursor as it is then.
func (w *Writer) Cursor(session string) []byte {
	data, _ := w.loadCursor(session)
	return data
}
