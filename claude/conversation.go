package claude

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"jig/serve/conversation"
	"jig/status"
)

// Conversation reads Claude Code's transcripts for `jig serve`: the user's
// and the assistant's messages of the main thread (not a subagent's), each
// tool_use with its tool_result, a page at a time from the file's end.
type Conversation struct{}

// claudeLine is what a page needs of one transcript line.
type claudeLine struct {
	Type      string `json:"type"`
	Sidechain bool   `json:"isSidechain"`
	Meta      bool   `json:"isMeta"`
	Timestamp string `json:"timestamp"`
	Message   *struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudePart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // a tool_result's: a string or text parts
	IsError   bool            `json:"is_error"`
}

// Read is one page; its Before is the offset where reading back stopped.
func (Conversation) Read(path string, page conversation.Page) (*conversation.Messages, error) {
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	end := fi.Size()
	if page.Before != "" {
		n, err := strconv.ParseInt(page.Before, 10, 64)
		if err != nil || n < 0 {
			return nil, status.Mark(status.ErrBadInput, fmt.Errorf("page %q: not one this reader gave", page.Before))
		}
		end = min(n, end)
	}
	col := conversation.NewCollector(page)
	before := ""
	err = conversation.Backward(f, end, func(b []byte, off int64) bool {
		var l claudeLine
		if json.Unmarshal(b, &l) != nil || l.Message == nil || l.Sidechain || l.Meta {
			return true
		}
		if l.Type == "user" || l.Type == "assistant" {
			addClaude(col, &l)
		}
		if col.Full() {
			before = strconv.FormatInt(off, 10)
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return col.Page(before), nil
}

// addClaude adds a message, or the tool results a user line carries.
func addClaude(col *conversation.Collector, l *claudeLine) {
	var text string
	var parts []claudePart
	if json.Unmarshal(l.Message.Content, &text) != nil {
		json.Unmarshal(l.Message.Content, &parts)
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
		case "tool_use":
			calls = append(calls, conversation.Call{ID: p.ID, Name: p.Name, Input: string(p.Input)})
		case "tool_result":
			col.Result(p.ToolUseID, conversation.Result{Text: resultText(p.Content), Error: p.IsError})
		}
	}
	at, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	// One reply is written as one line per content block, with one id.
	col.Add(conversation.Message{ID: l.Message.ID, Role: l.Message.Role, Text: strings.Join(texts, "\n"), At: at, Calls: calls})
}

// resultText is a tool_result's content: a string, or text parts.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []claudePart
	json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}
