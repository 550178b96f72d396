package pi

import (
	"os"
	"path/filepath"
	"testing"

	"jig/serve/conversation"
)

// FuzzConversation: any file is read without a panic, page after page to
// its start, each page's cursor before the last one's (the first 100).
func FuzzConversation(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("transcript", "testdata", "recorded", "pi-0.73.1.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, "")
	f.Add([]byte(`{"type":"message","id":"a","parentId":"a","message":{"role":"user","content":"loop"}}`+"\n"), "a")
	f.Add([]byte(`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"1","name":"x","arguments":{}}]}}`+"\n"+`{"type":"message","message":{"role":"toolResult","toolCallId":"1","content":7}}`), "")
	f.Fuzz(func(t *testing.T, data []byte, leaf string) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		before := ""
		for pages := 0; pages < 100; pages++ { // each cursor goes back: no page is read twice

			p, err := Conversation{}.Read(path, conversation.Page{Before: before, Leaf: leaf, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if p.Before == "" {
				return
			}
			end, _, _ := piCursor(conversation.Page{Before: p.Before})
			last, _, _ := piCursor(conversation.Page{Before: before})
			if before != "" && end >= last {
				t.Fatalf("page cursor %q does not go back from %q", p.Before, before)
			}
			before = p.Before
		}
	})
}
