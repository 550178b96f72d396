package pi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"jig/internal/fixtures"
	"jig/pi/transcript"
	"jig/serve/conversation"
)

func recorded(t *testing.T) string {
	return filepath.Join(fixtures.Testdata(t), "recorded", "pi-1.6.0.jsonl")
}

// branched is the recorded session with a second branch off the end of its
// first turn, written last: the branch Pi continues from.
func branched(t *testing.T) string {
	data, err := os.ReadFile(recorded(t))
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(
		`{"type":"message","id":"b0000001","parentId":"3cadb1a3","timestamp":"2026-11-30T12:20:00.000Z","message":{"role":"user","content":[{"type":"text","text":"A branch question"}]}}`+"\n"+
			`{"type":"message","id":"b0000002","parentId":"b0000001","timestamp":"2026-11-30T12:20:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"A branch answer"}]}}`+"\n")...)
	path := filepath.Join(t.TempDir(), "2026-11-30T12-15-55-096Z_01a22c62.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func texts(p *conversation.Messages) []string {
	var out []string
	for _, m := range p.Messages {
		if m.Text != "" {
			out = append(out, m.Role+": "+m.Text)
		}
	}
	return out
}

// TestConversationReadsTheRecordedSession reads the newest page and the
// whole file in small pages: the same messages, each call with its result.
func TestConversationReadsTheRecordedSession(t *testing.T) {
	c := Conversation{}
	all, err := c.Read(recorded(t), conversation.Page{Limit: conversation.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	got := texts(all)
	if len(got) < 8 || got[0] != "user: Tidy the garden notes and start a plan for spring and summer." ||
		got[len(got)-1] != "assistant: Last year's plan is gone; plan/README.md lists the three seasons." || all.Before != "" {
		t.Fatalf("messages %q, before %q", got, all.Before)
	}
	read := all.Messages[1].Calls[0]
	if read.Name != "read" || read.Input != `{"path":"notes.md"}` || !read.Done || !strings.HasPrefix(read.Result, "# Garden notes") {
		t.Fatalf("first call %+v", read)
	}
	var paged []conversation.Message
	before := ""
	for pages := 0; ; pages++ {
		p, err := c.Read(recorded(t), conversation.Page{Limit: 3, Before: before})
		if err != nil || pages > 20 {
			t.Fatalf("page %d: %v", pages, err)
		}
		if n := len(p.Messages); n == 0 || p.Messages[0].Role != "user" && p.Before != "" && n < 2*3 {
			t.Fatalf("page %d is short but does not start at a user message: %+v", pages, p.Messages)
		}
		paged = append(p.Messages, paged...)
		if before = p.Before; before == "" {
			break
		}
	}
	if !slices.EqualFunc(paged, all.Messages, func(a, b conversation.Message) bool {
		return a.ID == b.ID && a.Text == b.Text && len(a.Calls) == len(b.Calls)
	}) {
		t.Fatalf("pages of 3 give %d messages, one page %d", len(paged), len(all.Messages))
	}
}

// TestConversationFollowsABranch reads the active branch (the last entry's)
// and another leaf, lists both leaves and forks at an entry.
func TestConversationFollowsABranch(t *testing.T) {
	path := branched(t)
	sessions := t.TempDir()
	c := Conversation{Sessions: &Sessions{Dir: sessions}, Now: time.Now}
	active, err := c.Read(path, conversation.Page{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(texts(active), "\n")
	if !strings.Contains(got, "A branch answer") || strings.Contains(got, "Check the plans") || !strings.Contains(got, "Tidy the garden") {
		t.Fatalf("active branch:\n%s", got)
	}
	other, err := c.Read(path, conversation.Page{Leaf: "4a5cf82f"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts(other), "\n"); strings.Contains(got, "A branch") || !strings.Contains(got, "Clear out last year's plan") {
		t.Fatalf("leaf 4a5cf82f:\n%s", got)
	}
	leaves, err := c.Leaves(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 2 || !slices.ContainsFunc(leaves, func(l conversation.Leaf) bool { return l.ID == "b0000002" && l.Active }) {
		t.Fatalf("leaves %+v", leaves)
	}
	forked, err := c.Fork(path, "deac525e")
	if err != nil {
		t.Fatal(err)
	}
	h, err := transcript.ReadHeader(forked)
	if err != nil || h.ParentSession != path || !strings.HasPrefix(forked, sessions) {
		t.Fatalf("fork %s: header %+v, %v", forked, h, err)
	}
	page, err := c.Read(forked, conversation.Page{})
	if err != nil || len(page.Messages) != 1 || page.Messages[0].Text != "Tidy the garden notes and start a plan for spring and summer." {
		t.Fatalf("the fork holds %+v, %v", page, err)
	}
}

func TestConversationRefusesAForeignPage(t *testing.T) {
	if _, err := (Conversation{}).Read(recorded(t), conversation.Page{Before: "nope"}); err == nil {
		t.Fatal("a page this reader never gave was taken")
	}
}
