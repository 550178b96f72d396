package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"time"

	"jig/codex/rollout"
	"jig/status"
	"jig/transcript"
	"jig/writer"
)

// rolloutLag bounds how long a hook waits, before the lock, for Codex to
// write what the event is about into the rollout: a call's end for
// PostToolUse, the turn's last token count for Stop. Codex writes both
// before it runs those hooks; the wait covers a slow disk.
const rolloutLag = 500 * time.Millisecond

// source is the session's rollout as a writer.Source.
type source struct {
	path      string
	ahead     *rollout.Reader // read before the lock, from the cursor aheadFrom (at offset aheadAt)
	aheadFrom []byte
	aheadAt   int64
	r         *rollout.Reader // as Derive left it; nil before Codex wrote the rollout, or when it was current
	cursor    []byte          // the cursor Derive was given
	written   bool            // the session's file was there before the lock: it holds what the cursor read
	// the call the hook knows ended before the rollout says it (a call
	// jig refused), and how
	settleID, settle string
}

// newSource is the rollout the hook's input names (nil when none, or not
// an absolute path). For PostToolUse and Stop it reads ahead, briefly
// waiting until the rollout says what the event is about; every other
// event reads under the lock only.
func newSource(w *writer.Writer, in *Input, outcome string) *source {
	if in.TranscriptPath == "" || !filepath.IsAbs(in.TranscriptPath) {
		return nil
	}
	_, err := os.Lstat(w.Dir.SessionPath(in.SessionID))
	s := &source{path: in.TranscriptPath, written: err == nil}
	if outcome != "" {
		s.settleID, s.settle = in.ToolUseID, outcome
	}
	var caughtUp func(r *rollout.Reader) bool
	switch {
	case in.Event == "PostToolUse" && in.ToolUseID != "":
		caughtUp = func(r *rollout.Reader) bool { o := r.Outcome(in.ToolUseID); return o != "" && o != "pending" }
	case in.Event == "Stop":
		caughtUp = (*rollout.Reader).Replied
	default:
		return s
	}
	s.aheadFrom = w.Cursor(in.SessionID)
	r, at := s.restore(s.aheadFrom)
	err = r.Update()
	for deadline := time.Now().Add(rolloutLag); (err != nil || !caughtUp(r)) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		err = r.Update()
	}
	if err == nil {
		s.ahead, s.aheadAt = r, at
	}
	return s
}

// restore is a reader at cursor, and the offset it starts from when the
// cursor held (-1: a stale or foreign cursor is dropped, the reader starts
// afresh).
func (s *source) restore(cursor []byte) (*rollout.Reader, int64) {
	if cursor != nil {
		if r, err := rollout.RestoreReader(s.path, cursor); err == nil {
			return r, r.Offset()
		}
	}
	return rollout.NewReader(s.path), -1
}

// Derive reads on from cursor: the reader read ahead when the cursor is
// still the one it started from, else a fresh one from the cursor.
func (s *source) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	s.cursor = cursor
	if s.ahead == nil && s.written && s.settleID == "" && cursor != nil && rollout.Current(s.path, cursor) {
		// nothing appended since the last hook, which wrote what the
		// rollout says into the file: nothing to lay over it (the hook's
		// usual case, and the fast one)
		return nil, nil, nil
	}
	r, restoredAt := s.ahead, s.aheadAt
	if r == nil || !bytes.Equal(cursor, s.aheadFrom) {
		// another hook moved the cursor meanwhile: read on from there
		r, restoredAt = s.restore(cursor)
		if err := r.Update(); err != nil {
			return nil, nil, nil // not written yet, or not a file jig reads: nothing from it
		}
	}
	s.r = r
	settled := s.settleID != "" && r.Settle(s.settleID, s.settle)
	d := r.Derive(transcript.NewRepoFinder().Repo)
	if restoredAt >= 0 && r.Offset() == restoredAt && !settled {
		return d, nil, nil // read nothing new: the saved cursor stands
	}
	next, err := r.MarshalCursor()
	if err != nil {
		return d, nil, nil // a cursor not saved costs one full read next time, nothing more
	}
	return d, next, nil
}

// reader is the rollout as Derive left it, nil when there is none. When
// Derive found it current, the reader is restored from the cursor (what
// it knew) for the one who asks.
func (s *source) reader() *rollout.Reader {
	if s == nil {
		return nil
	}
	if s.r == nil && s.cursor != nil {
		s.r, _ = rollout.RestoreReader(s.path, s.cursor)
	}
	return s.r
}

// read is the rollout as Derive read it this time: nil when it found
// nothing new (what it knew is in the file already).
func (s *source) read() *rollout.Reader {
	if s == nil {
		return nil
	}
	return s.r
}

// dropGone takes out of st the files the session created and then
// deleted or moved away (an earlier hook may have listed them), when the
// rollout said something new: else the hook that read it dropped them.
func (s *source) dropGone(st *status.Status) {
	r := s.read()
	if r == nil {
		return
	}
	gone := r.Gone()
	st.Outputs = slices.DeleteFunc(st.Outputs, func(o status.Output) bool {
		return o.Action == status.Created && slices.Contains(gone, o.Path)
	})
}

// orNil is s as a writer.Source, a nil interface when there is no rollout.
func (s *source) orNil() writer.Source {
	if s == nil {
		return nil
	}
	return s
}

func (s *source) pathOrEmpty() string {
	if s == nil {
		return ""
	}
	return s.path
}
