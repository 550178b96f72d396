// Package scriptedopenai is a scripted OpenAI Responses server for
// end-to-end tests with the real Codex CLI: it listens on 127.0.0.1,
// streams the replies the test queued (text, function calls, usage) as the
// Responses API's server-sent events, and records every request body, in
// particular the tools the agent offered the model and the input it sent.
//
// A request that arrives while no reply is queued waits for one, so a test
// can look at the agent between two model calls before it lets the turn go
// on; a reply may also carry a delay, for a step that takes a while by
// itself.
package scriptedopenai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"jig/internal/scripted"
)

// Reply is one model call's answer.
type Reply struct {
	Text  string
	Calls []Call
	Usage Usage
	// Delay holds the reply back before its first event.
	Delay time.Duration
}

// Call is a tool call the model makes: a function call, whose Arguments
// are its JSON object, or with Custom a freeform tool's call (Codex's
// apply_patch), whose Arguments are its text input.
type Call struct {
	ID, Name, Arguments string
	Custom              bool
}

// Usage is what the reply says it cost, in the Responses API's terms:
// Input counts the cached tokens too, as the API does.
type Usage struct {
	Input, Cached, Output, Reasoning int
}

// Total is input + output, the Responses API's total_tokens.
func (u Usage) Total() int { return u.Input + u.Output }

// Request is one Responses call the agent made.
type Request struct {
	Body   []byte
	Model  string
	Tools  []string // the functions offered, by name
	Stream bool
	Input  []json.RawMessage // the items sent, in order
}

// Server is a running scripted model.
type Server struct {
	URL string // base URL of the API, ending in /v1

	*scripted.Server[Reply, Request]
}

// Start listens on an ephemeral port of 127.0.0.1.
func Start() (*Server, error) {
	s := &Server{}
	base, err := scripted.Serve[Reply, Request](func(mux *http.ServeMux) {
		mux.HandleFunc("POST /v1/responses", s.responses)
	})
	if err != nil {
		return nil, err
	}
	s.Server, s.URL = base, "http://"+base.Addr+"/v1"
	return s, nil
}

// WaitRequests blocks until n requests have arrived, the server closed or
// the time ran out, and reports whether they arrived.
func (s *Server) WaitRequests(n int, limit time.Duration) bool {
	return s.Script.WaitRequests(n, nil, limit)
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model  string            `json:"model"`
		Stream bool              `json:"stream"`
		Input  []json.RawMessage `json:"input"`
		Tools  []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	req := Request{Body: raw, Model: body.Model, Stream: body.Stream, Input: body.Input, Tools: []string{}}
	for _, t := range body.Tools {
		if t.Name != "" {
			req.Tools = append(req.Tools, t.Name)
		}
	}
	ctx := r.Context()
	reply, n, ok := s.Script.Take(ctx, req)
	if !ok {
		http.Error(w, "no scripted reply", http.StatusServiceUnavailable)
		return
	}
	if !sleep(ctx, reply.Delay) {
		return
	}
	stream(w, fmt.Sprintf("resp_scripted%04d", n), body.Model, reply)
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

// stream writes r as the Responses API's event stream: response.created;
// for the text, a message item added, its text as one delta, the item
// done; each function call's item added and done; response.completed with
// the usage. Codex builds items from output_item.done alone.
func stream(w http.ResponseWriter, id, model string, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, v map[string]any) {
		v["type"] = event
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "model": model, "status": "in_progress"}})
	index := 0
	if r.Text != "" {
		msgID := fmt.Sprintf("msg_%s_%d", id, index)
		send("response.output_item.added", map[string]any{"output_index": index,
			"item": map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "in_progress", "content": []any{}}})
		send("response.output_text.delta", map[string]any{"output_index": index, "item_id": msgID, "content_index": 0, "delta": r.Text})
		send("response.output_item.done", map[string]any{"output_index": index,
			"item": map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": r.Text, "annotations": []any{}}}}})
		index++
	}
	for _, c := range r.Calls {
		item := map[string]any{"type": "function_call", "id": "fc_" + c.ID, "call_id": c.ID, "name": c.Name, "arguments": c.Arguments, "status": "completed"}
		added := map[string]any{"type": "function_call", "id": "fc_" + c.ID, "call_id": c.ID, "name": c.Name, "arguments": "", "status": "in_progress"}
		if c.Custom {
			item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + c.ID, "call_id": c.ID, "name": c.Name, "input": c.Arguments, "status": "completed"}
			added = map[string]any{"type": "custom_tool_call", "id": "ctc_" + c.ID, "call_id": c.ID, "name": c.Name, "input": "", "status": "in_progress"}
		}
		send("response.output_item.added", map[string]any{"output_index": index, "item": added})
		send("response.output_item.done", map[string]any{"output_index": index, "item": item})
		index++
	}
	u := r.Usage
	send("response.completed", map[string]any{"response": map[string]any{"id": id, "model": model, "status": "completed",
		"usage": map[string]any{
			"input_tokens": u.Input, "input_tokens_details": map[string]any{"cached_tokens": u.Cached},
			"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens": u.Total(),
		}}})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
