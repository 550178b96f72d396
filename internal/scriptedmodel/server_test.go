package scriptedmodel

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
)

// TestStreamsQueuedReply checks the wire format Pi reads: a role chunk, the
// text, tool call fragments, the finish reason, a usage chunk, [DONE]; and
// that the request's offered tools are recorded.
func TestStreamsQueuedReply(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Queue(Reply{Text: "hi", ToolCalls: []ToolCall{{ID: "c1", Name: "read", Args: `{"path":"a.txt"}`}},
		Usage: Usage{Prompt: 100, Completion: 7, Cached: 40}})
	body := `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"read"}},{"type":"function","function":{"name":"bash"}}]}`
	resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			lines = append(lines, l)
		}
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"role":"assistant"`, `"content":"hi"`, `"name":"read"`, `"arguments":"{\"path\":`,
		`"finish_reason":"tool_calls"`, `"prompt_tokens":100`, `"cached_tokens":40`, "data: [DONE]"} {
		if !strings.Contains(all, want) {
			t.Errorf("stream lacks %s:\n%s", want, all)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 1 || strings.Join(reqs[0].Tools, ",") != "read,bash" {
		t.Errorf("recorded %+v, want one request offering read,bash", reqs)
	}
}

// TestWaitsForReply checks that a request without a queued reply waits
// until the test queues one.
func TestWaitsForReply(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(`{}`))
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b := new(strings.Builder)
		bufio.NewReader(resp.Body).WriteTo(b)
		got <- b.String()
	}()
	if !s.WaitRequests(1, nil) {
		t.Fatal("request never arrived")
	}
	s.Queue(Reply{Text: "late"})
	if out := <-got; !strings.Contains(out, `"content":"late"`) {
		t.Errorf("reply %q, want the queued text", out)
	}
}
