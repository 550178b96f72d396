package codex

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"jig/serve/conversation"
	"jig/status"
)

// Conversation reads Codex's rollouts for `jig serve`: the user's and the
// assistant's messages, each function or custom tool call with its output,
// a page at a time from the file's end. What Codex itself puts in the
// user's role (the environment context, instructions) is left out.
type Conversation struct{}

// rolloutItem is what a page needs of one rollout line.
type rolloutItem struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Payload   struct {
		Type    string `json:"type"`
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"` // a function call's, JSON text
		Input     string `json:"input"`     // a custom tool call's
		CallID    string `json:"call_id"`
		Output    string `json:"output"`
	} `json:"payload"`
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
		var it rolloutItem
		if json.Unmarshal(b, &it) != nil || it.Type != "response_item" {
			return true
		}
		addItem(col, &it)
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

// addItem adds a message, a call (as an assistant message of its own, so
// the order of text and calls stays) or a call's output.
func addItem(col *conversation.Collector, it *rolloutItem) {
	p := &it.Payload
	at, _ := time.Parse(time.RFC3339Nano, it.Timestamp)
	switch p.Type {
	case "message":
		var texts []string
		for _, c := range p.Content {
			if c.Type == "input_text" || c.Type == "output_text" {
				texts = append(texts, c.Text)
			}
		}
		text := strings.Join(texts, "\n")
		if p.Role == "assistant" || p.Role == "user" && !codexContext(text) {
			col.Add(conversation.Message{Role: p.Role, Text: text, At: at})
		}
	case "function_call", "custom_tool_call":
		input := p.Arguments
		if p.Type == "custom_tool_call" {
			input = p.Input
		}
		col.Add(conversation.Message{Role: "assistant", At: at, Calls: []conversation.Call{{ID: p.CallID, Name: p.Name, Input: input}}})
	case "function_call_output", "custom_tool_call_output":
		col.Result(p.CallID, conversation.Result{Text: p.Output})
	}
}

// codexContext says a user message is one Codex wrote: the environment
// context or instructions it gives the model in the user's role.
func codexContext(text string) bool {
	for _, tag := range []string{"<environment_context>", "<user_instructions>", "<turn_aborted>"} {
		if strings.HasPrefix(strings.TrimSpace(text), tag) {
			return true
		}
	}
	return false
}
