package scriptedopenai

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStreamsQueuedReply checks the wire format Codex reads: the events in
// order, a message item with its text delta, a function call and a
// freeform call as output_item.done items, response.completed with the
// usage; and that the offered tools and the input are recorded.
func TestStreamsQueuedReply(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Queue(Reply{Text: "hi", Calls: []Call{
		{ID: "call_1", Name: "exec_command", Arguments: `{"cmd":"true"}`},
		{ID: "call_2", Name: "apply_patch", Arguments: "*** Begin Patch\n*** End Patch\n", Custom: true},
	}, Usage: Usage{Input: 1000, Cached: 200, Output: 50, Reasoning: 10}})
	body := `{"model":"gpt-test","stream":true,"input":[{"type":"message","role":"user"}],` +
		`"tools":[{"type":"function","name":"exec_command"},{"type":"custom","name":"apply_patch"},{"type":"web_search"}]}`
	resp, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	var events []string
	var text strings.Builder
	var items []map[string]any
	var usage map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if ev, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, ev)
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var e struct {
			Type     string         `json:"type"`
			Delta    string         `json:"delta"`
			Item     map[string]any `json:"item"`
			Response struct {
				Usage map[string]any `json:"usage"`
			} `json:"response"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("data line is not JSON: %s", data)
		}
		switch e.Type {
		case "response.output_text.delta":
			text.WriteString(e.Delta)
		case "response.output_item.done":
			items = append(items, e.Item)
		case "response.completed":
			usage = e.Response.Usage
		}
	}
	want := "response.created response.output_item.added response.output_text.delta response.output_item.done " +
		"response.output_item.added response.output_item.done response.output_item.added response.output_item.done response.completed"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
	if text.String() != "hi" || len(items) != 3 {
		t.Fatalf("text %q, %d items", text.String(), len(items))
	}
	if it := items[1]; it["type"] != "function_call" || it["call_id"] != "call_1" || it["name"] != "exec_command" || it["arguments"] != `{"cmd":"true"}` {
		t.Errorf("function call item %v", it)
	}
	if it := items[2]; it["type"] != "custom_tool_call" || it["call_id"] != "call_2" || it["input"] != "*** Begin Patch\n*** End Patch\n" {
		t.Errorf("custom call item %v", it)
	}
	u, _ := json.Marshal(usage)
	if want := `{"input_tokens":1000,"input_tokens_details":{"cached_tokens":200},"output_tokens":50,"output_tokens_details":{"reasoning_tokens":10},"total_tokens":1050}`; string(u) != want {
		t.Errorf("usage %s, want %s", u, want)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || strings.Join(reqs[0].Tools, ",") != "exec_command,apply_patch" || !reqs[0].Stream || reqs[0].Model != "gpt-test" || len(reqs[0].Input) != 1 {
		t.Errorf("recorded %+v", reqs)
	}
}

// TestWaitsForReplyAndDelays checks that a request waits for its reply and
// that a reply's delay holds the answer back.
func TestWaitsForReplyAndDelays(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan time.Time, 1)
	go func() {
		resp, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
		if err == nil {
			sc := bufio.NewScanner(resp.Body)
			completed := false
			for sc.Scan() {
				completed = completed || sc.Text() == "event: response.completed"
			}
			resp.Body.Close()
			if !completed {
				t.Error("no response.completed")
			}
		}
		done <- time.Now()
	}()
	if !s.WaitRequests(1, 5*time.Second) {
		t.Fatal("the request did not arrive")
	}
	select {
	case <-done:
		t.Fatal("answered before a reply was queued")
	case <-time.After(50 * time.Millisecond):
	}
	queued := time.Now()
	s.Queue(Reply{Text: "ok", Delay: 200 * time.Millisecond})
	if at := <-done; at.Sub(queued) < 200*time.Millisecond {
		t.Errorf("answered %s after queueing, before the delay", at.Sub(queued))
	}
	if s.WaitRequests(2, 10*time.Millisecond) {
		t.Error("WaitRequests(2) reported a request that never came")
	}
	resp, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(`not json`))
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad body: %v %v", resp.StatusCode, err)
	}
}
