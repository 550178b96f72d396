package codex

import (
	"encoding/json"
	"strings"
	"time"

	"jig/serve/conversation"
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
	return conversation.ReadBack(path, page, func(b []byte, col *conversation.Collector) {
		var it rolloutItem
		if json.Unmarshal(b, &it) == nil && it.Type == "response_item" {
			addItem(col, &it)
		}
	})
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
