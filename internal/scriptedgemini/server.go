// Package scriptedgemini is a scripted Gemini API server for end-to-end
// tests with the real Gemini CLI: it listens on 127.0.0.1, streams the
// replies the test queued (text, functionCall parts, usageMetadata) as
// streamGenerateContent's server-sent events, and records every request
// body, in particular the function declarations the agent offered the
// model and the contents it sent.
//
// Gemini CLI also makes utility calls of its own (generateContent: a
// summary, the next-speaker check, a title) and counts tokens: those are
// answered at once, without the queue, and recorded apart, so a test
// scripts the chat model's turns only. A streamed request that arrives
// while no reply is queued waits for one, so a test can look at the agent
// mid-turn.
package scriptedgemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"jig/internal/scripted"
)

// Reply is one streamed model call's answer.
type Reply struct {
	Text  string
	Calls []Call
	Usage Usage
	// Delay holds the reply back before its first event.
	Delay time.Duration
}

// Call is a functionCall part: Args is its JSON object.
type Call struct {
	Name, Args string
}

// Usage is the reply's usageMetadata, in the Gemini API's terms: Prompt
// counts the cached tokens too, as the API does.
type Usage struct {
	Prompt, Candidates, Cached, Thoughts int
}

// Total is totalTokenCount: prompt + candidates + thoughts.
func (u Usage) Total() int { return u.Prompt + u.Candidates + u.Thoughts }

// Request is one call the agent made.
type Request struct {
	Body     []byte
	Model    string            // from the path: models/{model}:…
	Method   string            // streamGenerateContent, generateContent or countTokens
	Tools    []string          // the function declarations offered, by name
	Contents []json.RawMessage // the contents sent, in order
	JSON     bool              // generationConfig.responseMimeType is application/json
}

// Server is a running scripted model.
type Server struct {
	URL string // for GOOGLE_GEMINI_BASE_URL

	*scripted.Server[Reply, Request]

	mu      sync.Mutex
	utility []Request
}

// Start listens on an ephemeral port of 127.0.0.1.
func Start() (*Server, error) {
	s := &Server{}
	base, err := scripted.Serve[Reply, Request](func(mux *http.ServeMux) {
		mux.HandleFunc("POST /v1beta/models/{call}", s.models)
	})
	if err != nil {
		return nil, err
	}
	s.Server, s.URL = base, "http://"+base.Addr
	return s, nil
}

// WaitRequests blocks until n streamed requests have arrived, the server
// closed or the time ran out, and reports whether they arrived.
func (s *Server) WaitRequests(n int, limit time.Duration) bool {
	return s.Script.WaitRequests(n, nil, limit)
}

// Utility is the generateContent and countTokens calls so far, in order.
func (s *Server) Utility() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.utility...)
}

// body is what the server reads of a request.
type body struct {
	Contents []json.RawMessage `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	model, method, ok := strings.Cut(r.PathValue("call"), ":")
	raw, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	var b body
	if !ok || err != nil || json.Unmarshal(raw, &b) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	req := Request{Body: raw, Model: model, Method: method, Contents: b.Contents, Tools: []string{},
		JSON: b.GenerationConfig.ResponseMimeType == "application/json"}
	for _, t := range b.Tools {
		for _, d := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, d.Name)
		}
	}
	switch method {
	case "streamGenerateContent":
		s.stream(w, r.Context(), req)
	case "generateContent", "countTokens":
		s.mu.Lock()
		s.utility = append(s.utility, req)
		s.mu.Unlock()
		if method == "countTokens" {
			writeJSON(w, map[string]any{"totalTokens": len(raw) / 4})
			return
		}
		writeJSON(w, response(utilityReply(req), model, "utility"))
	default:
		http.Error(w, "no such method: "+method, http.StatusNotFound)
	}
}

// utilityReply answers a utility call: a JSON-mode request gets a small
// JSON object (the next-speaker check's shape: the user speaks next), any
// other a short text.
func utilityReply(req Request) Reply {
	if req.JSON {
		return Reply{Text: `{"reasoning":"scripted","next_speaker":"user"}`, Usage: Usage{Prompt: 10, Candidates: 5}}
	}
	return Reply{Text: "scripted summary", Usage: Usage{Prompt: 10, Candidates: 2}}
}

func (s *Server) stream(w http.ResponseWriter, ctx context.Context, req Request) {
	reply, n, ok := s.Script.Take(ctx, req)
	if !ok {
		http.Error(w, "no scripted reply", http.StatusServiceUnavailable)
		return
	}
	if !sleep(ctx, reply.Delay) {
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	data, _ := json.Marshal(response(reply, req.Model, fmt.Sprintf("scripted%04d", n)))
	fmt.Fprintf(w, "data: %s\r\n\r\n", data)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// response is one GenerateContentResponse: a candidate with the text part
// and the functionCall parts, STOP, and the usage.
func response(r Reply, model, id string) map[string]any {
	parts := []any{}
	if r.Text != "" {
		parts = append(parts, map[string]any{"text": r.Text})
	}
	for _, c := range r.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": json.RawMessage(c.Args)}})
	}
	u := r.Usage
	return map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": u.Prompt, "candidatesTokenCount": u.Candidates,
			"cachedContentTokenCount": u.Cached, "thoughtsTokenCount": u.Thoughts, "totalTokenCount": u.Total()},
		"modelVersion": model, "responseId": id,
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
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
