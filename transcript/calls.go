package transcript

import "jig/status"

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

// PeekCalls decodes a lazy state's calls and pending calls alone, from
// its head, where a reader's state keeps them first ("calls", then
// "pending"): ok false when it does not begin with them, or none is kept.
func (l *Lazy) PeekCalls() (calls []Call, pending map[string]Pending, ok bool) {
	ok = l.Peek(Field{Key: "calls", Into: &calls}, Field{Key: "pending", Into: &pending})
	return calls, pending, ok
}
