package pi

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"jig/pi/transcript"
	"jig/serve/conversation"
	"jig/status"
)

// Conversation reads Pi's session files for `jig serve`: the messages of a
// branch, newest last, a page at a time from the file's end, the branch
// ends, and a fork at an entry (as `jig pi fork`).
type Conversation struct {
	Sessions *Sessions
	Now      func() time.Time
}

// piLine is what a page needs of one line of a session file.
type piLine struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`
	Message   *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"toolCallId"`
		IsError    bool            `json:"isError"`
	} `json:"message"`
}

// piPart is one element of a message's content.
type piPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Read is one page of the branch ending at page.Leaf (the file's last
// entry when ""). A page's Before is "OFFSET:ID": where the reading back
// stopped and the entry the branch goes on with. A file of the legacy
// formats, whose entries have no ids, is one line of entries.
func (c Conversation) Read(path string, page conversation.Page) (*conversation.Messages, error) {
	end, want, err := piCursor(page)
	if err != nil {
		return nil, err
	}
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if end < 0 || end > fi.Size() {
		end = fi.Size()
	}
	col := conversation.NewCollector(page)
	before, root := "", false
	err = conversation.Backward(f, end, func(b []byte, off int64) bool {
		var l piLine
		if json.Unmarshal(b, &l) != nil {
			return true // a line cut short or foreign: not the branch's
		}
		if l.Type == "session" {
			return false
		}
		if l.ID != "" {
			if want != "" && l.ID != want {
				return true // another branch's entry
			}
			want = ""
			if l.ParentID != nil {
				want = *l.ParentID
			}
			root = want == ""
		}
		if l.Type == "message" && l.Message != nil {
			addPi(col, &l)
		}
		if root {
			return false
		}
		if col.Full() {
			before = strconv.FormatInt(off, 10) + ":" + want
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return col.Page(before), nil
}

// piCursor is where a page starts reading back (-1: the end) and the entry
// it looks for first.
func piCursor(page conversation.Page) (int64, string, error) {
	if page.Before == "" {
		return -1, page.Leaf, nil
	}
	off, id, ok := strings.Cut(page.Before, ":")
	n, err := strconv.ParseInt(off, 10, 64)
	if !ok || err != nil || n < 0 {
		return 0, "", status.Mark(status.ErrBadInput, fmt.Errorf("page %q: not one this reader gave", page.Before))
	}
	return n, id, nil
}

// addPi adds a message line: a user's or the assistant's message, or a
// tool's result.
func addPi(col *conversation.Collector, l *piLine) {
	m := l.Message
	var parts []piPart
	var text string
	if json.Unmarshal(m.Content, &text) != nil {
		json.Unmarshal(m.Content, &parts)
	}
	var texts []string
	if text != "" {
		texts = append(texts, text)
	}
	var calls []conversation.Call
	for _, p := range parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		case "toolCall":
			calls = append(calls, conversation.Call{ID: p.ID, Name: p.Name, Input: string(p.Arguments)})
		}
	}
	switch m.Role {
	case "toolResult":
		col.Result(m.ToolCallID, conversation.Result{Text: strings.Join(texts, "\n"), Error: m.IsError})
	case "user", "assistant":
		at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
		col.Add(conversation.Message{ID: l.ID, Role: m.Role, Text: strings.Join(texts, "\n"), At: at, Calls: calls})
	}
}

// Leaves is every branch end of the session, as `jig pi tree` lists them.
func (c Conversation) Leaves(path string) ([]conversation.Leaf, error) {
	t, err := transcript.ReadTree(path, 80)
	if err != nil {
		return nil, err
	}
	out := make([]conversation.Leaf, 0, len(t.Leaves))
	for _, l := range t.Leaves {
		out = append(out, conversation.Leaf{ID: l.ID, At: l.At, Active: l.Active, Depth: l.Depth, From: l.From,
			Prompt: l.Prompt, Name: l.Name})
	}
	return out, nil
}

// Fork writes a new session holding the branch up to entry at, beside the
// source's folder for its cwd, as `jig pi fork --at` does; Pi continues it
// with `pi --session PATH`.
func (c Conversation) Fork(path, at string) (string, error) {
	f, err := c.Sessions.Fork(path, at, false, "", c.Now())
	if err != nil {
		return "", err
	}
	return f.Path, nil
}
