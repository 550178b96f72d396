package claude

import (
	"encoding/json"
	"strings"
	"time"

	"jig/serve/conversation"
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
	return conversation.ReadBack(path, page, func(b []byte, col *conversation.Collector) {
		var l claudeLine
		if json.Unmarshal(b, &l) != nil || l.Message == nil || l.Sidechain || l.Meta {
			return
		}
		if l.Type == "user" || l.Type == "assistant" {
			addClaude(col, &l)
		}
	})
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
