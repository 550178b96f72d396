package scriptedgemini

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestStreamsQueuedReply checks the wire format Gemini CLI reads: one SSE
// event ending in CRLF CRLF, a candidate with a text and a functionCall
// part, STOP and the usageMetadata; and that the declarations offered and
// the contents sent are recorded.
func TestStreamsQueuedReply(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Queue(Reply{Text: "hi", Calls: []Call{{Name: "run_shell_command", Args: `{"command":"true"}`}},
		Usage: Usage{Prompt: 150, Candidates: 9, Cached: 30, Thoughts: 3}})
	body := `{"contents":[{"role":"user","parts":[{"text":"go"}]}],` +
		`"tools":[{"functionDeclarations":[{"name":"run_shell_command"},{"name":"write_file"}]}]}`
	resp, err := http.Post(s.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	data, ok := strings.CutPrefix(string(raw), "data: ")
	if !ok || !strings.HasSuffix(data, "\r\n\r\n") {
		t.Fatalf("not one SSE event: %q", raw)
	}
	var got struct {
		Candidates []struct {
			Content struct {
				Role  string `json:"role"`
				Parts []struct {
					Text         string `json:"text"`
					FunctionCall *struct {
						Name string         `json:"name"`
						Args map[string]any `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		Usage map[string]int `json:"usageMetadata"`
	}
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatal(err)
	}
	c := got.Candidates[0]
	if c.Content.Role != "model" || c.FinishReason != "STOP" || len(c.Content.Parts) != 2 || c.Content.Parts[0].Text != "hi" ||
		c.Content.Parts[1].FunctionCall == nil || c.Content.Parts[1].FunctionCall.Name != "run_shell_command" ||
		c.Content.Parts[1].FunctionCall.Args["command"] != "true" {
		t.Errorf("candidate: %+v", c)
	}
	want := map[string]int{"promptTokenCount": 150, "candidatesTokenCount": 9, "cachedContentTokenCount": 30,
		"thoughtsTokenCount": 3, "totalTokenCount": 162}
	for k, v := range want {
		if got.Usage[k] != v {
			t.Errorf("usage %s = %d, want %d", k, got.Usage[k], v)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Model != "gemini-2.5-flash" || reqs[0].Method != "streamGenerateContent" ||
		strings.Join(reqs[0].Tools, ",") != "run_shell_command,write_file" || len(reqs[0].Contents) != 1 {
		t.Errorf("recorded: %+v", reqs)
	}
}

// TestUtilityCallsAnsweredApart checks that generateContent and countTokens
// are answered without the queue (JSON mode gets a JSON object) and
// recorded apart from the chat's requests.
func TestUtilityCallsAnsweredApart(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(call, body string) map[string]any {
		resp, err := http.Post(s.URL+"/v1beta/models/"+call, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatalf("%s: %v", call, err)
		}
		return v
	}
	v := post("gemini-3.5-flash-lite:generateContent", `{"contents":[],"generationConfig":{"responseMimeType":"application/json"}}`)
	text := v["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj["next_speaker"] != "user" {
		t.Errorf("JSON mode answered %q", text)
	}
	if v := post("gemini-2.5-flash:countTokens", `{"contents":[]}`); v["totalTokens"] == nil {
		t.Errorf("countTokens: %v", v)
	}
	if u := s.Utility(); len(u) != 2 || !u[0].JSON || u[1].Method != "countTokens" {
		t.Errorf("utility: %+v", u)
	}
	if len(s.Requests()) != 0 {
		t.Errorf("utility calls took the chat's queue")
	}
	resp, err := http.Post(s.URL+"/v1beta/models/gemini-2.5-flash:embedContent", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown method: %d", resp.StatusCode)
	}
}
