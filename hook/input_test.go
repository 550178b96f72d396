package hook_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"jig/hook"
	"jig/request"
	"jig/status"
)

// testReading reads the test agent's input whole as Claude's shape: the
// event, session, tool, tool_use_id; its Skill tool names a skill.
func testReading(h *hook.Hooks) hook.Reading {
	return hook.Reading{PreTool: "PreToolUse", SkillTool: "Skill", CallIDs: []string{"tool_call_id", "tool_use_id"}, Head: testAgent(nil),
		Parse: func(data []byte) (func() ([]byte, error), error) {
			var in struct {
				SessionID string `json:"session_id"`
				Event     string `json:"hook_event_name"`
				ToolName  string `json:"tool_name"`
			}
			if err := json.Unmarshal(data, &in); err != nil {
				return nil, errors.New("not a JSON object")
			}
			kinds := map[string]hook.Kind{"PreToolUse": hook.PreTool, "PostToolUse": hook.PostTool}
			ev := &hook.Event{Name: in.Event, Kind: kinds[in.Event], Session: in.SessionID, Tool: in.ToolName}
			return func() ([]byte, error) { return h.Run(testAgent(nil), ev) }, nil
		}}
}

// stdin is a hook's stdin: head, then n bytes of a string argument, then tail.
func stdin(head string, n int, tail string) io.Reader {
	return io.MultiReader(strings.NewReader(head), strings.NewReader(strings.Repeat("x", n)), strings.NewReader(tail))
}

// TestStdinDecidesWhatItCannotRecord: a PreToolUse larger than a status
// file is decided from its head, whatever the keys' order and nothing
// written; a skill's call by the skill its arguments name; past MaxInput
// without its tool, or unreadable, a call is refused; any other event too
// large, or unreadable, is bad input with no answer.
func TestStdinDecidesWhatItCannotRecord(t *testing.T) {
	h := testHooks(t)
	if err := (&request.Kept{Dir: h.Dir, Folder: "kit-test-switches"}).Save("s1", status.Switches{
		Tools: map[string]bool{"Bash": false}, Skills: map[string]bool{"deploy": false}}); err != nil {
		t.Fatal(err)
	}
	big := status.MaxFileSize + 10
	for name, c := range map[string]struct {
		stdin io.Reader
		want  string // in the refusal; "" allowed
		bad   bool   // an error of bad input
	}{
		"off, tool first":  {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"`, big, `"},"tool_use_id":"t1"}`), "tool Bash is switched off", false},
		"off, tool last":   {stdin(`{"tool_input":{"command":"`, big, `"},"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash"}`), "tool Bash is switched off", false},
		"on":               {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"`, big, `"}}`), "", false},
		"a skill off":      {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Skill","tool_input":{"args":"`, big, `","skill":"deploy"}}`), "skill deploy is switched off", false},
		"a skill on":       {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Skill","tool_input":{"skill":"pdf","args":"`, big, `"}}`), "", false},
		"a skill unnamed":  {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_input":{"skill":"pdf","args":"`, big, `"},"tool_name":"Skill"}`), hook.Unreadable, true},
		"past MaxInput":    {stdin(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_input":{"content":"`, hook.MaxInput, `"},"tool_name":"Write"}`), hook.Unreadable, true},
		"no session":       {stdin(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"`, big, `"}}`), hook.Unreadable, true},
		"small, not JSON":  {strings.NewReader(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":x}}`), hook.Unreadable, true},
		"small, a number":  {strings.NewReader(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":7}`), hook.Unreadable, true},
		"huge PostToolUse": {stdin(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"content":"`, big, `"}}`), "", true},
		"bad PostToolUse":  {strings.NewReader(`{"session_id":"s1","hook_event_name":"PostToolUse",`), "", true},
		"no event":         {strings.NewReader(`hello`), "", true},
	} {
		out, err := h.Stdin(c.stdin, testReading(h))
		if got := string(out); c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: answer %q, want %q", name, got, c.want)
		}
		if bad := errors.Is(err, status.ErrBadInput); bad != c.bad || err != nil && !bad {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := h.Dir.Read("s1"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a call decided from its head wrote the status: %v", err)
	}
	out, err := h.Stdin(strings.NewReader(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`), testReading(h))
	if !strings.Contains(string(out), "tool Bash is switched off") || err != nil {
		t.Fatalf("a whole PreToolUse: %s %v", out, err)
	}
	if s, err := h.Dir.Read("s1"); err != nil || len(s.Recent) > 0 && s.Recent[0].Outcome != status.Error {
		t.Errorf("a whole PreToolUse is recorded: %+v %v", s, err)
	}
}
