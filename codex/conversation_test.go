package codex

import (
	"strings"
	"testing"

	"jig/serve/conversation"
)

// TestConversationReadsARecordedRollout reads the rollout Codex 0.169.0
// wrote (codex/rollout/testdata): two turns of the same prompt, the second
// one's call blocked by jig's hook; Codex's own context is left out.
func TestConversationReadsARecordedRollout(t *testing.T) {
	p, err := Conversation{}.Read("rollout/testdata/exec-resume.jsonl", conversation.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Messages {
		line := m.Role + ": " + m.Text
		for _, c := range m.Calls {
			line += " [" + c.Name + " → " + strings.SplitN(c.Result, "\n", 2)[0] + "]"
		}
		got = append(got, line)
	}
	want := []string{
		"user: EXP-PROMPT do it", "assistant: Running.", "assistant:  [exec_command → Chunk ID: c3bbe6]",
		"assistant:  [apply_patch → Exit code: 0]", "assistant: Done.",
		"user: EXP-PROMPT do it", "assistant: Running.",
		"assistant:  [exec_command → Command blocked by PreToolUse hook: jig: NOPE. Command: touch /work/ran1 # SECRET-CMD]",
		"assistant: Done.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
