package conversation

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func backward(t *testing.T, data string) (lines []string, offs []int64) {
	t.Helper()
	r := strings.NewReader(data)
	if err := Backward(r, int64(len(data)), func(l []byte, off int64) bool {
		lines, offs = append(lines, string(l)), append(offs, off)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return lines, offs
}

func TestBackwardGivesLinesNewestFirstWithTheirOffsets(t *testing.T) {
	data := "one\ntwo\n\nthree\nfour-cut"
	lines, offs := backward(t, data)
	if want := []string{"four-cut", "three", "two", "one"}; !slices.Equal(lines, want) {
		t.Fatalf("lines %q, want %q", lines, want)
	}
	for i, off := range offs {
		if !strings.HasPrefix(data[off:], lines[i]) {
			t.Errorf("line %q at %d: the file there is %q", lines[i], off, data[off:])
		}
	}
}

func TestBackwardAcrossChunksAndSkipsAnOverlongLine(t *testing.T) {
	long := strings.Repeat("x", MaxLine+10)
	mid := strings.Repeat("m", 100<<10) // longer than a chunk, shorter than MaxLine
	data := "first\n" + long + "\n" + mid + "\nlast\n"
	lines, _ := backward(t, data)
	if len(lines) != 3 || lines[0] != "last" || lines[1] != mid || lines[2] != "first" {
		short := make([]string, len(lines))
		for i, l := range lines {
			short[i] = l[:min(len(l), 10)]
		}
		t.Fatalf("got %d lines %q: want last, the 100 KiB line, first (the overlong one skipped)", len(lines), short)
	}
}

func TestBackwardStopsWhenAsked(t *testing.T) {
	n := 0
	Backward(bytes.NewReader([]byte("a\nb\nc\n")), 6, func([]byte, int64) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("called %d times after stopping at 2", n)
	}
}

// TestCollectorFoldsResultsAndEndsAPageAtAUserMessage feeds a collector as
// a reader reading back does: results before their calls, a call id used
// again in a later turn.
func TestCollectorFoldsResultsAndEndsAPageAtAUserMessage(t *testing.T) {
	c := NewCollector(Page{Limit: 2})
	c.Add(Message{Role: "assistant", Text: "done"})
	c.Result("c1", Result{Text: "second result"})
	c.Add(Message{Role: "assistant", Calls: []Call{{ID: "c1", Name: "bash", Input: `{"command":"ls"}`}}})
	if c.Full() {
		t.Fatal("full at an assistant message")
	}
	c.Add(Message{Role: "user", Text: "again"})
	if !c.Full() {
		t.Fatal("not full at a user message past the limit")
	}
	c.Result("c1", Result{Text: "first result", Error: true})
	c.Add(Message{Role: "assistant", Calls: []Call{{ID: "c1", Name: "bash"}}})
	c.Add(Message{Role: "assistant", Text: "   "[:0]}) // empty: not a message
	p := c.Page("7")
	if len(p.Messages) != 4 || p.Before != "7" {
		t.Fatalf("page %+v", p)
	}
	first, second := p.Messages[0].Calls[0], p.Messages[2].Calls[0]
	if first.Result != "first result" || !first.Error || second.Result != "second result" || second.Error || !second.Done {
		t.Fatalf("results folded as %+v and %+v", first, second)
	}
	if p.Messages[3].Text != "done" || p.Messages[1].Role != "user" {
		t.Fatalf("order %+v", p.Messages)
	}
}

func TestCollectorMergesOneReplyWrittenAsSeveralEntries(t *testing.T) {
	c := NewCollector(Page{})
	c.Add(Message{ID: "msg_1", Role: "assistant", Calls: []Call{{Name: "Write"}}})
	c.Add(Message{ID: "msg_1", Role: "assistant", Text: "I'll write it."})
	p := c.Page("")
	if len(p.Messages) != 1 || p.Messages[0].Text != "I'll write it." || len(p.Messages[0].Calls) != 1 {
		t.Fatalf("page %+v", p.Messages)
	}
}

func TestCutKeepsRunesWhole(t *testing.T) {
	if got := Cut("aé", 2); got != "a …" {
		t.Fatalf("Cut = %q", got)
	}
	if got := Cut("short", 10); got != "short" {
		t.Fatalf("Cut = %q", got)
	}
}
