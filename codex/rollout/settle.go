package rollout

import "jig/status"

// Settle records how a call ended as the hook knows it before the rollout
// says it (a call jig's own PreToolUse refused): a call read so far and
// still pending gets outcome; the rollout's own word, once read, agrees.
// It reports whether it changed a call.
func (r *Reader) Settle(id, outcome string) bool {
	if outcome == status.Pending {
		return false
	}
	for i := range r.st.Calls {
		if c := &r.st.Calls[i]; c.ID == id && c.Outcome == status.Pending {
			c.Outcome = outcome
			return true
		}
	}
	return false
}
