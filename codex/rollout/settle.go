package rollout

import "jig/transcript"

// Settle records how a call ended as the hook knows it before the rollout
// says it (a call jig's own PreToolUse refused): a call read so far and
// still pending gets outcome; the rollout's own word, once read, agrees.
// It reports whether it changed a call.
func (r *Reader) Settle(id, outcome string) bool {
	return transcript.Settle(r.st.Calls, id, outcome)
}
