package gemini

import (
	"io"
	"strings"
	"testing"
	"time"
)

// endless is a stdin that never ends: a reader that read it to the end
// would never return.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestReadInputStopsEarly: BeforeTool's fields are read and its arguments
// never are (a huge write_file is still refused); BeforeModel's model is
// read, its messages never are.
func TestReadInputStopsEarly(t *testing.T) {
	for name, head := range map[string]string{
		"BeforeTool":  `{"session_id":"s1","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"content":"`,
		"BeforeModel": `{"session_id":"s1","hook_event_name":"BeforeModel","llm_request":{"model":"gemini-2.5-pro","messages":[{"content":"`,
	} {
		in, err := ReadInput(io.MultiReader(strings.NewReader(head), endless{}))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if in.Event != name || in.SessionID != "s1" || name == "BeforeTool" && in.ToolName != "write_file" ||
			name == "BeforeModel" && in.Model != "gemini-2.5-pro" {
			t.Errorf("%s: %+v", name, in)
		}
	}
}

// TestReadInput: AfterTool's file change is read from returnDisplay past
// the arguments; a display that is text is passed over; bad input is
// refused with what is wrong.
func TestReadInput(t *testing.T) {
	in, err := ReadInput(strings.NewReader(`{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"write_file",` +
		`"tool_input":{"file_path":"/w/a.txt","content":"SECRET"},"tool_response":{"llmContent":"ok",` +
		`"returnDisplay":{"fileDiff":"SECRET","filePath":"/w/a.txt","isNewFile":true}}}`))
	if err != nil || in.Written == nil || in.Written.FilePath != "/w/a.txt" || !in.Written.IsNewFile {
		t.Fatalf("%+v %v", in, err)
	}
	if o := (&Hooks{Now: nowFunc}).output(in); o == nil || o.Path != "/w/a.txt" || o.Action != "created" {
		t.Errorf("outputs %+v", o)
	}
	in, err = ReadInput(strings.NewReader(`{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"run_shell_command",` +
		`"tool_response":{"returnDisplay":"SECRET output"},"extra":[1,{"a":null}]}`))
	if err != nil || in.Written != nil {
		t.Errorf("a text display: %+v %v", in, err)
	}
	for stdin, want := range map[string]string{
		"hello":                            "not a JSON object",
		`[]`:                               "not a JSON object",
		`{"hook_event_name":"AfterAgent"}`: "no session_id",
		`{"session_id":"s1"}`:              "no hook_event_name",
		`{"session_id":7}`:                 "field session_id: not a string",
		`{"session_id":"s1","hook_event_name":"BeforeTool","cwd":`:                          "field cwd: not a string",
		`{"session_id":"` + strings.Repeat("x", 300) + `","hook_event_name":"BeforeAgent"}`: "longer than",
	} {
		if _, err := ReadInput(strings.NewReader(stdin)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: %v, want %q", stdin, err, want)
		}
	}
}

func nowFunc() time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) }

// TestReadInputAnyOrder: a BeforeTool whose arguments come before the
// tool's name (keys in another order than Gemini CLI's) is read whole; one
// that cannot be read is refused (Refusal), any other event is not.
func TestReadInputAnyOrder(t *testing.T) {
	in, err := ReadInput(strings.NewReader(`{"cwd":"/w","hook_event_name":"BeforeTool","session_id":"s1","tool_input":{"command":"x"},"tool_name":"run_shell_command"}`))
	if err != nil || in.ToolName != "run_shell_command" {
		t.Fatalf("%+v %v", in, err)
	}
	in, err = ReadInput(io.MultiReader(strings.NewReader(`{"hook_event_name":"BeforeTool","session_id":"s1","tool_input":{"content":"`), endless{}))
	if err == nil || !strings.Contains(string(Refusal(in)), `"decision":"deny"`) {
		t.Errorf("an unreadable BeforeTool: %v, answer %s", err, Refusal(in))
	}
	in, err = ReadInput(strings.NewReader(`{"hook_event_name":"AfterTool","session_id":`))
	if err == nil || Refusal(in) != nil {
		t.Errorf("an unreadable AfterTool: %v, answer %s", err, Refusal(in))
	}
}

// FuzzReadInput: whatever a hook's stdin holds, ReadInput never panics; an
// input it takes names a session and an event, and one it refuses is
// answered deny when it was a BeforeTool, nothing otherwise.
func FuzzReadInput(f *testing.F) {
	f.Add(`{"session_id":"s1","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"content":"x"}}`)
	f.Add(`{"session_id":"s1","hook_event_name":"BeforeModel","llm_request":{"messages":[],"model":"m"}}`)
	f.Add(`{"session_id":"s1","hook_event_name":"AfterTool","tool_response":{"returnDisplay":{"filePath":7}}}`)
	f.Add(`{"hook_event_name":"BeforeTool","session_id":null,"llm_request":"x"}`)
	f.Fuzz(func(t *testing.T, stdin string) {
		in, err := ReadInput(strings.NewReader(stdin))
		if err == nil {
			if in.SessionID == "" || in.Event == "" {
				t.Fatalf("taken without a session or an event: %+v", in)
			}
			return
		}
		if r := Refusal(in); (in != nil && in.Event == "BeforeTool") != (r != nil) {
			t.Fatalf("event %+v, answer %q", in, r)
		}
	})
}
