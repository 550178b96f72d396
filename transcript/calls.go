package transcript

import (
	"bytes"
	"encoding/json"

	"jig/status"
)

// Call is one tool call as an incremental reader keeps it in its cursor: a
// name, what kind of action, how it ended, when (never an argument).
type Call struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"` // as the recent list shows it (MCP: server/tool)
	Action  string `json:"action,omitempty"`
	Outcome string `json:"outcome"`
	At      int64  `json:"at"` // unix ms
}

// Pending is a call waiting for its result: its name and the file a write
// touches (the only argument ever kept, as the outputs list holds it).
type Pending struct {
	Tool string `json:"tool"`
	Path string `json:"path,omitempty"`
}

// OutcomeOf is how call id ended as a reader read it: pending while its
// result is not read, "" when the call itself is not.
func OutcomeOf(calls []Call, pending map[string]Pending, id string) string {
	if _, ok := pending[id]; ok {
		return status.Pending
	}
	for _, c := range calls {
		if c.ID == id {
			return c.Outcome
		}
	}
	return ""
}

// Settle gives call id, still pending among calls, the outcome its agent's
// after-tool hook says (the agent writes the result only after that hook
// ran; the result, once read, has the last word). It reports whether it
// changed a call.
func Settle(calls []Call, id, outcome string) bool {
	if outcome == status.Pending {
		return false
	}
	for i := range calls {
		if c := &calls[i]; c.ID == id && c.Outcome == status.Pending {
			c.Outcome = outcome
			return true
		}
	}
	return false
}

// PeekOutcome is OutcomeOf over a lazy state's calls and pending calls,
// read off its bytes where a reader's state keeps them first ("calls",
// then "pending", as json.Marshal writes them): a hook asks it of a
// 200-call state at every call, and decoding the calls was a third of its
// work. ok is false when the state does not begin with them, or none is
// kept.
func (l *Lazy) PeekOutcome(id string) (outcome string, ok bool) {
	var calls, pending []byte
	n := 0
	if l.raw == nil || !status.WalkMembers(l.raw, func(key, value []byte) bool {
		switch n++; {
		case n == 1 && string(key) == `"calls":`:
			calls = value
		case n == 2 && string(key) == `"pending":`:
			pending = value
		}
		return n < 2
	}) || calls == nil || pending == nil {
		return "", false
	}
	waits := false
	if !status.WalkMembers(pending, func(key, _ []byte) bool {
		waits = status.MemberName(key) == id
		return !waits
	}) {
		return "", false
	}
	if waits {
		return status.Pending, true
	}
	// The first call of that id is the first object json.Marshal began
	// with it: a raw quote is never inside a string. An id it escapes is
	// found by decoding the calls.
	quoted, err := json.Marshal(id)
	if err != nil {
		return "", false
	}
	if bytes.IndexByte(quoted, '\\') >= 0 {
		var all []Call
		if json.Unmarshal(calls, &all) != nil {
			return "", false
		}
		return OutcomeOf(all, nil, id), true
	}
	at := bytes.Index(calls, append(append([]byte(`{"id":`), quoted...), ','))
	if at < 0 {
		return "", true // not read
	}
	var c Call
	if v, _, ok := status.CutValue(calls[at:]); !ok || status.UnmarshalObject(v, &c) != nil {
		return "", false
	}
	return c.Outcome, true
}
