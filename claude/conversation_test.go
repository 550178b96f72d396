package claude

import (
	"strings"
	"testing"

	"jig/serve/conversation"
)

// TestConversationReadsATranscript reads the hand-made transcript in
// claude/testdata (Claude Code 2.1.328's shapes, as the transcript
// reader's tests have them): one reply written as two entries is one
// message, results fold into their calls, a subagent's line and a broken
// line are left out.
func TestConversationReadsATranscript(t *testing.T) {
	p, err := Conversation{}.Read("testdata/conversation.jsonl", conversation.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Messages {
		line := m.Role + ": " + m.Text
		for _, c := range m.Calls {
			line += " [" + c.Name + " " + c.Input + " → " + c.Result + "]"
		}
		got = append(got, line)
	}
	want := []string{
		"user: Write the notes and list the folder.",
		`assistant: I'll write it. [Write {"file_path":"/w/notes.txt","content":"garden notes"} → File created successfully at: /w/notes.txt]`,
		`assistant:  [Bash {"command":"ls /w","description":"list"} → notes.txt]`,
		"assistant: The notes are written; the folder holds notes.txt.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || p.Before != "" {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	older, err := Conversation{}.Read("testdata/conversation.jsonl", conversation.Page{Limit: 1})
	if err != nil || len(older.Messages) != 2 || older.Before == "" { // no user message within twice the limit
		t.Fatalf("a page of one: %+v, %v", older, err)
	}
}

// TestConversationReadsARecordedTranscript reads what the real Claude Code
// 2.1.328 wrote (claude/testdata/README.md): its request records and
// attachments are no messages.
func TestConversationReadsARecordedTranscript(t *testing.T) {
	p, err := Conversation{}.Read("testdata/recorded-2.1.328.jsonl", conversation.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Messages {
		line := m.Role + ": " + m.Text
		for _, c := range m.Calls {
			line += " [" + c.Name + " → " + c.Result + "]"
		}
		got = append(got, line)
	}
	want := []string{
		"user: Write the garden notes, then list the folder.",
		"assistant: I'll write the notes. [Write → File created successfully at: /tmp/TestZZRecordConversation1471587919/001/project/notes.txt (file state is current in your context — no need to Read it back)]",
		"assistant:  [Bash → notes.txt]",
		"assistant: The notes are written; the folder holds notes.txt.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
