package gemini

import (
	"os"
	"path/filepath"

	"jig/gemini/chat"
	"jig/transcript"
	"jig/writer"
)

// source is the session's chat record as a writer.Source. Gemini CLI
// appends to it synchronously before it runs the next hook (a reply's
// tokens before BeforeTool or AfterAgent), so a hook reads it under the
// lock only, never waiting for it; a call is recorded with its result
// after AfterTool, which the hook's own input says first.
type source struct {
	path    string
	r       *chat.Reader // as Derive left it; nil before Gemini wrote the record, or when it was current
	cursor  []byte       // the cursor Derive was given
	written bool         // the session's file was there before the lock: it holds what the cursor read
}

// newSource is the record the hook's input names (nil when none, or not
// an absolute path).
func newSource(w *writer.Writer, in *Input) *source {
	if in.TranscriptPath == "" || !filepath.IsAbs(in.TranscriptPath) {
		return nil
	}
	_, err := os.Lstat(w.Dir.SessionPath(in.SessionID))
	return &source{path: in.TranscriptPath, written: err == nil}
}

// Derive reads on from cursor (a stale or foreign one is dropped: the
// record is read afresh).
func (s *source) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	s.cursor = cursor
	if s.written && cursor != nil && chat.Current(s.path, cursor) {
		// nothing appended since the last hook, which wrote what the
		// record says into the file: nothing to lay over it (the usual
		// case, and the fast one)
		return nil, nil, nil
	}
	r, restored := chat.NewReader(s.path), false
	if cursor != nil {
		if c, err := chat.RestoreReader(s.path, cursor); err == nil {
			r, restored = c, true
		}
	}
	at := r.Offset()
	if err := r.Update(); err != nil {
		return nil, nil, nil // not written yet, or not a file jig reads: nothing from it
	}
	s.r = r
	d := r.Derive(transcript.NewRepoFinder().Repo)
	if restored && r.Offset() == at {
		return d, nil, nil // read nothing new: the saved cursor stands
	}
	next, err := r.MarshalCursor()
	if err != nil {
		return d, nil, nil // a cursor not saved costs one full read next time, nothing more
	}
	return d, next, nil
}

// reader is the record as Derive left it, nil when there is none. When
// Derive found it current, the reader is restored from the cursor (what
// it knew) for the one who asks.
func (s *source) reader() *chat.Reader {
	if s == nil {
		return nil
	}
	if s.r == nil && s.cursor != nil {
		s.r, _ = chat.RestoreReader(s.path, s.cursor)
	}
	return s.r
}
