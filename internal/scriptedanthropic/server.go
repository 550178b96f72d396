// Package scriptedanthropic is a scripted Anthropic Messages server for
// end-to-end tests with the real Claude Code: it listens on 127.0.0.1,
// streams the replies the test queued (text, tool_use blocks with their
// input as input_json_delta fragments, usage, stop reason) as the Messages
// API's server-sent events, and records every request body, in particular
// the tools the agent offered the model.
//
// A request that arrives while no reply is queued waits for one, so a test
// can look at the agent mid-turn before it lets the turn go on; a reply
// may also carry a delay, for a step that takes a while by itself.
package scriptedanthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"jig/internal/scripted"
)

// Reply is one model call's answer.
type Reply struct {
	Text     string
	ToolUses []ToolUse
	Usage    Usage
	// Model is the model the reply says it came from; empty: the model the
	// request asked for.
	Model string
	// Delay holds the reply back before its first event: the agent is
	// mid-step for that long.
	Delay time.Duration
}

// ToolUse is a tool call the model makes; Input is its JSON object.
type ToolUse struct {
	ID, Name, Input string
}

// Usage is what the reply says it cost, in the Messages API's terms.
type Usage struct {
	Input, Output, CacheRead, CacheCreation int
}

func (u *Usage) add(v Usage) {
	u.Input += v.Input
	u.Output += v.Output
	u.CacheRead += v.CacheRead
	u.CacheCreation += v.CacheCreation
}

// Request is one Messages call the agent made.
type Request struct {
	Body   []byte
	Model  string
	Tools  []string // the tools offered, by name
	Stream bool
}

// Server is a running scripted model.
type Server struct {
	URL string // base URL, for ANTHROPIC_BASE_URL

	*scripted.Server[Reply, Request]

	mu     sync.Mutex
	served Usage
}

// Start listens on an ephemeral port of 127.0.0.1.
func Start() (*Server, error) {
	s := &Server{}
	base, err := scripted.Serve[Reply, Request](func(mux *http.ServeMux) {
		mux.HandleFunc("POST /v1/messages", s.messages)
		mux.HandleFunc("POST /v1/messages/count_tokens", countTokens)
	})
	if err != nil {
		return nil, err
	}
	s.Server, s.URL = base, "http://"+base.Addr+""
	return s, nil
}

// Served is the usage of every reply sent so far, summed: what the agent
// was told it paid for, whichever of its requests (the conversation's, a
// subagent's, a compaction, a side request) each answered.
func (s *Server) Served() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// WaitRequests blocks until n requests have arrived, the server closed or
// the time ran out, and reports whether they arrived.
func (s *Server) WaitRequests(n int, limit time.Duration) bool {
	return s.Script.WaitRequests(n, nil, limit)
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	req := Request{Body: raw, Model: body.Model, Stream: body.Stream, Tools: []string{}}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	ctx := r.Context()
	reply, n, ok := s.Script.Take(ctx, req)
	if !ok {
		http.Error(w, "no scripted reply", http.StatusServiceUnavailable)
		return
	}
	id := fmt.Sprintf("msg_scripted%04d", n)
	if reply.Model == "" {
		reply.Model = body.Model
	}
	if !sleep(ctx, reply.Delay) {
		return
	}
	s.mu.Lock()
	s.served.add(reply.Usage)
	s.mu.Unlock()
	if body.Stream {
		stream(w, id, reply)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(message(id, reply, true))
}

// sleep waits d unless the request is given up first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// countTokens answers the token-counting endpoint with a fixed count.
func countTokens(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"input_tokens":100}`)
}

func usage(u Usage, output int) map[string]any {
	return map[string]any{
		"input_tokens": u.Input, "output_tokens": output,
		"cache_read_input_tokens": u.CacheRead, "cache_creation_input_tokens": u.CacheCreation,
	}
}

func stopReason(r Reply) string {
	if len(r.ToolUses) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// message is the reply as one Messages object: whole (for a call without
// stream), or empty with message_start's usage.
func message(id string, r Reply, whole bool) map[string]any {
	m := map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": r.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(r.Usage, 1),
	}
	if !whole {
		return m
	}
	var content []any
	if r.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": r.Text})
	}
	for _, tu := range r.ToolUses {
		content = append(content, map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": json.RawMessage(tu.Input)})
	}
	m["content"], m["stop_reason"], m["usage"] = content, stopReason(r), usage(r.Usage, r.Usage.Output)
	return m
}

// stream writes r as the Messages API's event stream: message_start, a
// text block, one tool_use block per call (its input in two
// input_json_delta fragments, as real models send it), message_delta
// with the stop reason and output tokens, message_stop.
func stream(w http.ResponseWriter, id string, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, v map[string]any) {
		v["type"] = event
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	send("message_start", map[string]any{"message": message(id, r, false)})
	index := 0
	if r.Text != "" {
		send("content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "text_delta", "text": r.Text}})
		send("content_block_stop", map[string]any{"index": index})
		index++
	}
	for _, tu := range r.ToolUses {
		send("content_block_start", map[string]any{"index": index,
			"content_block": map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": map[string]any{}}})
		half := len(tu.Input) / 2
		for _, part := range []string{tu.Input[:half], tu.Input[half:]} {
			send("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
		send("content_block_stop", map[string]any{"index": index})
		index++
	}
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stopReason(r), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": r.Usage.Output}})
	send("message_stop", map[string]any{})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
