package scriptedanthropic

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStreamsQueuedReply checks the wire format Claude Code reads: the
// events in order, a tool_use block whose input arrives as input_json_delta
// fragments that join to the input, the stop reason and usage; and that
// the offered tools are recorded.
func TestStreamsQueuedReply(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Queue(Reply{Text: "hi", ToolUses: []ToolUse{{ID: "toolu_1", Name: "Write", Input: `{"file_path":"/tmp/a.txt","content":"x"}`}},
		Usage: Usage{Input: 100, Output: 7, CacheRead: 40, CacheCreation: 5}})
	body := `{"model":"claude-test","stream":true,"tools":[{"name":"Bash","input_schema":{}},{"name":"Write","input_schema":{}}]}`
	resp, err := http.Post(s.URL+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []string
	var input strings.Builder
	var stop string
	var usage map[string]int
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
			Type  string `json:"type"`
			Delta struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
			Message struct {
				Model string         `json:"model"`
				Usage map[string]int `json:"usage"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("data line is not JSON: %s", data)
		}
		switch {
		case e.Delta.Type == "input_json_delta":
			input.WriteString(e.Delta.PartialJSON)
		case e.Type == "message_delta":
			stop = e.Delta.StopReason
		case e.Type == "message_start":
			usage = e.Message.Usage
			if e.Message.Model != "claude-test" {
				t.Errorf("message_start model %q, want the requested one", e.Message.Model)
			}
		}
	}
	want := "message_start content_block_start content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
	if input.String() != `{"file_path":"/tmp/a.txt","content":"x"}` {
		t.Errorf("tool input joined to %s", input.String())
	}
	if stop != "tool_use" {
		t.Errorf("stop_reason %q, want tool_use", stop)
	}
	if usage["input_tokens"] != 100 || usage["cache_read_input_tokens"] != 40 || usage["cache_creation_input_tokens"] != 5 {
		t.Errorf("message_start usage %v", usage)
	}
	if got := s.Served(); got != (Usage{Input: 100, Output: 7, CacheRead: 40, CacheCreation: 5}) {
		t.Errorf("served %+v", got)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || strings.Join(reqs[0].Tools, ",") != "Bash,Write" || !reqs[0].Stream {
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
		resp, err := http.Post(s.URL+"/v1/messages", "application/json", strings.NewReader(`{"model":"m"}`))
		if err == nil {
			var m struct {
				StopReason string `json:"stop_reason"`
			}
			json.NewDecoder(resp.Body).Decode(&m)
			resp.Body.Close()
			if m.StopReason != "end_turn" {
				t.Errorf("stop_reason %q", m.StopReason)
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
}
