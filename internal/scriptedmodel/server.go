// Package scriptedmodel is a scripted OpenAI-compatible chat-completions
// server for end-to-end tests: it listens on 127.0.0.1, streams the replies
// the test queued (text, reasoning, tool calls, usage) as server-sent events,
// and records every request body so a test can see what the agent offered.
//
// A request that arrives while no reply is queued waits for one: the test
// sees the request arrive (the agent is mid-turn), looks around, then queues
// the reply. Nothing is timed.
package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	"jig/internal/scripted"
)

// Reply is one model call's answer.
type Reply struct {
	Reasoning string
	Text      string
	ToolCalls []ToolCall
	Usage     Usage
	Fail      int // an HTTP status to answer with instead (500: the provider failed)
}

// ToolCall is a call the model makes; Args is the JSON object of arguments.
type ToolCall struct {
	ID   string
	Name string
	Args string
}

// Usage is what the reply says it cost, in OpenAI's terms.
type Usage struct {
	Prompt, Completion, Cached int
}

// Request is one chat-completions call the agent made.
type Request struct {
	Body  []byte
	Tools []string // the function tools offered, by name
}

// Server is a running scripted model.
type Server struct {
	URL string // base URL, ending in /v1

	*scripted.Server[Reply, Request]

	mu       sync.Mutex
	untooled *Reply // answers every request that offers no tools (AnswerUntooled)
}

// AnswerUntooled answers every request that offers no tools with r, out of
// the queue and unrecorded: an agent's side calls (OpenCode's title of a
// new session) then never take a reply meant for a turn, whenever they come.
func (s *Server) AnswerUntooled(r Reply) {
	s.mu.Lock()
	s.untooled = &r
	s.mu.Unlock()
}

// Start listens on an ephemeral port of 127.0.0.1.
func Start() (*Server, error) {
	s := &Server{}
	base, err := scripted.Serve[Reply, Request](func(mux *http.ServeMux) {
		mux.HandleFunc("POST /v1/chat/completions", s.complete)
	})
	if err != nil {
		return nil, err
	}
	s.Server, s.URL = base, "http://"+base.Addr+"/v1"
	return s, nil
}

// WaitRequests blocks until n requests have arrived or done is closed, and
// reports whether they arrived.
func (s *Server) WaitRequests(n int, done <-chan struct{}) bool {
	return s.Script.WaitRequests(n, done, 0)
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	req := Request{Body: raw, Tools: []string{}}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	s.mu.Lock()
	untooled := s.untooled
	s.mu.Unlock()
	if untooled != nil && len(req.Tools) == 0 {
		stream(w, *untooled)
		return
	}
	reply, _, ok := s.Script.Take(r.Context(), req)
	if !ok {
		http.Error(w, "no scripted reply", http.StatusServiceUnavailable)
		return
	}
	if reply.Fail != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Fail)
		fmt.Fprint(w, `{"error":{"message":"scripted failure","type":"server_error"}}`)
		return
	}
	stream(w, reply)
}

// stream writes reply as the chunks of a streaming chat completion.
func stream(w http.ResponseWriter, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	const id = "chatcmpl-scripted"
	send := func(v any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", data)
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if r.Reasoning != "" {
		send(chunk(map[string]any{"reasoning_content": r.Reasoning}, nil))
	}
	if r.Text != "" {
		send(chunk(map[string]any{"content": r.Text}, nil))
	}
	for i, tc := range r.ToolCalls {
		send(chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""},
		}}}, nil))
		// Arguments arrive in two fragments, as real models send them.
		half := len(tc.Args) / 2
		for _, part := range []string{tc.Args[:half], tc.Args[half:]} {
			send(chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": part},
			}}}, nil))
		}
	}
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	send(chunk(map[string]any{}, finish))
	send(map[string]any{
		"id": id, "object": "chat.completion.chunk", "model": "scripted", "choices": []any{},
		"usage": map[string]any{
			"prompt_tokens":         r.Usage.Prompt,
			"completion_tokens":     r.Usage.Completion,
			"total_tokens":          r.Usage.Prompt + r.Usage.Completion,
			"prompt_tokens_details": map[string]any{"cached_tokens": r.Usage.Cached},
		},
	})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
