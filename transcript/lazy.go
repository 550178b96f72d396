package transcript

import (
	"bytes"
	"encoding/json"
)

// Lazy is what an incremental reader knew, as its cursor's second line
// holds it (JoinCursor), decoded only when the reader reads on or is
// asked: a hook that finds nothing new never decodes it.
type Lazy struct {
	raw []byte
}

// Set keeps a restored cursor's state, not decoded.
func (l *Lazy) Set(state []byte) { l.raw = state }

// Waiting reports whether a state is kept, not yet decoded.
func (l *Lazy) Waiting() bool { return l.raw != nil }

// Take decodes the kept state into into, and check says whether it is
// within the reader's bounds; ok false when it did not decode or check
// refused it (the reader then reads its file afresh, as for a cursor it
// refuses). Nothing is kept after: a second Take has nothing to do and is
// ok.
func (l *Lazy) Take(into any, check func() error) (ok bool) {
	if l.raw == nil {
		return true
	}
	raw := l.raw
	l.raw = nil
	if json.Unmarshal(raw, into) != nil {
		return false
	}
	return check == nil || check() == nil
}

// Peek decodes the kept state's first keys alone, in order, into the
// values fields names (a reader puts what a hook asks most, its calls,
// first): ok false when the state does not begin with them, or none is
// kept.
func (l *Lazy) Peek(fields ...Field) (ok bool) {
	if l.raw == nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(l.raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for _, f := range fields {
		if key, err := dec.Token(); err != nil || key != f.Key || dec.Decode(f.Into) != nil {
			return false
		}
	}
	return true
}

// Field is one key of a state Peek decodes, and where.
type Field struct {
	Key  string
	Into any
}
