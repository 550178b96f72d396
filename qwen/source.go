package qwen

import (
	"bytes"
	"os"
	"time"

	"jig/hook"
	qt "jig/qwen/transcript"
	"jig/transcript"
	"jig/writer"
)

// transcriptLag bounds how long a hook waits, before the lock, for Qwen to
// write what the event is about: the call's record for PreToolUse, the
// reply that ended the turn for Stop. Qwen queues its records on a writer
// of its own, so they land a moment after the hook may start.
const transcriptLag = 500 * time.Millisecond

// source is the session's transcript as a writer.Source.
type source struct {
	path             string
	settleID, settle string     // the call an after-tool event settles, and how
	ahead            *qt.Reader // read before the lock, from the cursor aheadFrom
	aheadFrom        []byte
	aheadRestored    bool
	r                *qt.Reader // as Derive left it; nil when Qwen has not written the transcript yet
	fresh            bool       // Derive read something new (else the file holds what it knew)
	written          bool       // the session's file was there before the lock: it holds what the cursor read
}

// newSource is the transcript the event names (nil when none). For a
// call's event and for Stop it reads ahead, briefly waiting until the
// transcript says what the event is about; every other event reads under
// the lock only.
func newSource(w *writer.Writer, ev *hook.Event) *source {
	if ev.Transcript == "" {
		return nil
	}
	_, err := os.Lstat(w.Dir.SessionPath(ev.Session))
	s := &source{path: ev.Transcript, written: err == nil}
	if ev.Outcome != "" && ev.CallID != "" {
		// Qwen writes a call's result only after its after-tool hooks ran,
		// and a refused call's a moment after: the event settles it
		s.settleID, s.settle = ev.CallID, ev.Outcome
	}
	var caughtUp func(r *qt.Reader) bool
	switch {
	case ev.Kind == hook.PreTool && ev.CallID != "":
		caughtUp = func(r *qt.Reader) bool { return r.Outcome(ev.CallID) != "" }
	case ev.Kind == hook.Stop:
		caughtUp = (*qt.Reader).TurnEnded
	default:
		return s
	}
	s.aheadFrom = w.Cursor(ev.Session)
	r, restored := s.restore(s.aheadFrom)
	err = r.Update()
	for deadline := time.Now().Add(transcriptLag); (err != nil || !caughtUp(r)) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		err = r.Update()
	}
	if err == nil {
		s.ahead, s.aheadRestored = r, restored
	}
	return s
}

// restore is a reader at cursor, and whether the cursor held (a stale or
// foreign cursor is dropped: the reader starts afresh).
func (s *source) restore(cursor []byte) (*qt.Reader, bool) {
	if cursor != nil {
		if r, err := qt.RestoreReader(s.path, cursor); err == nil {
			return r, true
		}
	}
	return qt.NewReader(s.path), false
}

// Derive reads on from cursor: the reader read ahead when the cursor is
// still the one it started from, else a fresh one from the cursor. A
// hook that finds nothing new saves no cursor.
func (s *source) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	r, restored := s.ahead, s.aheadRestored
	if r == nil || !bytes.Equal(cursor, s.aheadFrom) {
		// another hook moved the cursor meanwhile: read on from there
		r, restored = s.restore(cursor)
		if err := r.Update(); err != nil {
			return nil, nil, nil // not written yet, or not a file jig reads: nothing from it
		}
	}
	settled := s.settleID != "" && r.Settle(s.settleID, s.settle)
	s.r = r
	if restored && !settled && !r.Moved() && s.written {
		// nothing appended since the last hook, which wrote what the
		// transcript says into the file: nothing to lay over it (the
		// hook's usual case, and the fast one)
		return nil, nil, nil
	}
	s.fresh = true
	d := r.Derive(transcript.NewRepoFinder().Repo)
	if restored && !settled && !r.Moved() {
		return d, nil, nil
	}
	next, err := r.MarshalCursor()
	if err != nil {
		return d, nil, nil // a cursor not saved costs one full read next time, nothing more
	}
	return d, next, nil
}

// read is the transcript as Derive read it this time: nil when it found
// nothing new (what it knew is in the file already).
func (s *source) read() *qt.Reader {
	if s == nil || !s.fresh {
		return nil
	}
	return s.r
}

// reader is the transcript as Derive left it, nil when there is none.
func (s *source) reader() *qt.Reader {
	if s == nil {
		return nil
	}
	return s.r
}
