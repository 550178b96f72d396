package hook_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"jig/hook"
	"jig/request"
	"jig/status"
)

// FuzzRequestTaken: whatever a request file holds, the hook that takes it
// exits without error and leaves a file readers take; a request whose id
// can be read is answered, and a PreToolUse after it is decided from the
// switches the answer says.
func FuzzRequestTaken(f *testing.F) {
	for _, seed := range []string{
		`{"schema":1,"id":"r1","tools":{"Bash":false}}`,
		`{"schema":1,"id":"r1","tools":{"Bash":false,"Nope":false},"skills":{"pdf":false},"reload":true}`,
		`{"schema":2,"id":"r1"}`,
		`{"schema":1,"id":"r1","tools":{"Bash":"off"}}`,
		`{"schema":1,"id":"r1","covers":["a","b"],"tools":{"Write":true}}`,
		`not json`, `null`, `[]`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := testHooks(t)
		if _, err := h.Run(testAgent(nil), &hook.Event{Kind: hook.Start, Session: "s1"}); err != nil {
			t.Fatal(err)
		}
		h.Dir.Ensure(status.RequestsDir)
		if err := os.WriteFile(request.Path(h.Dir, "s1"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		req, parseErr := request.Parse(data)
		if _, err := h.Run(testAgent(nil), &hook.Event{Kind: hook.Prompt, Session: "s1"}); err != nil {
			t.Fatalf("the hook taking %q: %v", data, err)
		}
		s, err := h.Dir.Read("s1")
		if err != nil {
			t.Fatalf("the file after %q: %v", data, err)
		}
		if p, _ := os.Lstat(request.Path(h.Dir, "s1")); p != nil {
			t.Errorf("%q still waits", data)
		}
		var bad *request.BadError
		id := ""
		switch {
		case parseErr == nil:
			id = req.ID
		case errors.As(parseErr, &bad):
			id = bad.ID
		}
		if id != "" && (s.LastRequest == nil || s.LastRequest.ID != id) {
			t.Errorf("%q (id %q) unanswered: %+v", data, id, s.LastRequest)
		}
		out, _ := h.Run(testAgent(nil), &hook.Event{Kind: hook.PreTool, Session: "s1", Tool: "Bash"})
		on, switched := s.Switches.Tools["Bash"]
		if refused := len(out) > 0; refused != (switched && !on) {
			t.Errorf("%q: Bash refused %v, switches %v", data, refused, s.Switches.Tools)
		}
	})
}

// FuzzStdinFailsClosed: whatever a PreToolUse's arguments hold (the rest
// of the input, as it reaches the hook), an input that is not the agent's
// JSON is refused, and one that is, for Bash (switched off), is refused.
func FuzzStdinFailsClosed(f *testing.F) {
	for _, seed := range []string{`{}`, `{"command":"ls"}}`, `{"a":[1,2,{"b":null}]},"tool_name":"Write"}`, `{`, `"x"`,
		`{},"tool_name":7}`, `{},"session_id":""}`, `{}}{}`, `nul`, ``} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		h := testHooks(t)
		if err := (&request.Kept{Dir: h.Dir, Folder: "kit-test-switches"}).Save("s1", status.Switches{Tools: map[string]bool{"Bash": false}}); err != nil {
			t.Fatal(err)
		}
		for _, tool := range []string{"Bash", "Write"} {
			stdin := append([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"`+tool+`","tool_input":`), args...)
			if !bytes.HasSuffix(args, []byte("}")) {
				stdin = append(stdin, '}')
			}
			out, _ := h.Stdin(bytes.NewReader(stdin), testReading(h))
			var in struct {
				SessionID string `json:"session_id"`
				Event     string `json:"hook_event_name"`
				ToolName  string `json:"tool_name"`
			}
			parsed := json.Unmarshal(stdin, &in) == nil
			if !parsed && !bytes.Contains(out, []byte(hook.Unreadable[:20])) {
				t.Errorf("%q: not JSON, answer %q", stdin, out)
			}
			if parsed && in.ToolName == "Bash" && in.SessionID == "s1" && in.Event == "PreToolUse" && !bytes.Contains(out, []byte("tool Bash is switched off")) {
				t.Errorf("%q: Bash allowed: %q", stdin, out)
			}
		}
	})
}
