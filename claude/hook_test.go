package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"jig/hook"
	"jig/status"
)

// Claude's events as the kit's: the kind, the skill a Skill call runs,
// AskUserQuestion a question, the after-tool events' outcome.
func TestEventFromInput(t *testing.T) {
	for _, c := range []struct {
		in   Input
		want hook.Event
	}{
		{Input{Event: "PreToolUse", ToolName: "Bash", ToolUseID: "t1", ToolInput: json.RawMessage(`{"command":"rm -rf /"}`)},
			hook.Event{Kind: hook.PreTool, Tool: "Bash", CallID: "t1"}},
		{Input{Event: "PreToolUse", ToolName: "Skill", ToolInput: json.RawMessage(`{"skill":"pdf"}`)}, hook.Event{Kind: hook.PreTool, Tool: "Skill", Skill: "pdf"}},
		{Input{Event: "PreToolUse", ToolName: "AskUserQuestion"}, hook.Event{Kind: hook.PreTool, Tool: "AskUserQuestion", Asks: true}},
		{Input{Event: "PostToolUse", ToolName: "Bash"}, hook.Event{Kind: hook.PostTool, Tool: "Bash", Outcome: status.OK}},
		{Input{Event: "PostToolUseFailure", ToolName: "Bash"}, hook.Event{Kind: hook.ToolFailed, Tool: "Bash", Outcome: status.Error}},
		{Input{Event: "PermissionRequest", ToolName: "Bash"}, hook.Event{Kind: hook.Permission, Tool: "Bash"}},
		{Input{Event: "Notification", NotificationType: "permission_prompt"}, hook.Event{Kind: hook.PermissionNotice}},
		{Input{Event: "Notification", NotificationType: "elicitation_dialog"}, hook.Event{Kind: hook.Question}},
		{Input{Event: "Notification", NotificationType: "idle_prompt"}, hook.Event{Kind: hook.Other}},
		{Input{Event: "SubagentStop"}, hook.Event{Kind: hook.Working}},
		{Input{Event: "SessionEnd"}, hook.Event{Kind: hook.End}},
	} {
		got := *c.in.event()
		c.want.Name = c.in.Event
		if got != c.want {
			t.Errorf("%s %s %s: %+v, want %+v", c.in.Event, c.in.ToolName, c.in.NotificationType, got, c.want)
		}
	}
}

func TestClaudePID(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if got := ClaudePID(env("4242")); got != 4242 {
		t.Errorf("CLAUDE_PID=4242: %d", got)
	}
	// without it: the parent (go test's parent is no shell)
	if got := ClaudePID(env("")); got != os.Getppid() && got != parentOf(os.Getppid()) {
		t.Errorf("no CLAUDE_PID: %d, parent %d", got, os.Getppid())
	}
	if got := parentOf(os.Getpid()); got != os.Getppid() {
		t.Errorf("parentOf(self) = %d, want %d", got, os.Getppid())
	}
}

func TestCommandQuotingIsRecognised(t *testing.T) {
	for _, bin := range []string{"jig", "/usr/local/bin/jig", "/home/a b/bin/jig", "/o'brien/jig"} {
		for _, sub := range []string{"hook", "statusline"} {
			if c := Command(bin, sub); !isJig(c, sub) || isJig(c, "other") {
				t.Errorf("%s: %q not recognised as jig's %s", bin, c, sub)
			}
		}
	}
	for _, c := range []string{"notjig claude hook", "jig hook", "my-formatter", "'/x/jig"} {
		if isJig(c, "hook") {
			t.Errorf("%q taken for jig's hook", c)
		}
	}
}

// session is an in-process Claude session for the hook's unit tests: its
// transcript, state dir and writer.
type session struct {
	t          *testing.T
	transcript string
	dir        *status.Dir
	w          *Writer
}

func newSession(t *testing.T) *session {
	root := t.TempDir()
	s := &session{t: t, transcript: filepath.Join(root, "s1.jsonl"), dir: &status.Dir{Root: filepath.Join(root, "state")}}
	s.w = &Writer{Dir: s.dir, Now: time.Now, Host: "h", PID: os.Getpid(), Getenv: func(k string) string {
		return map[string]string{"HOME": root, "TMUX_PANE": "%1", "TMUX": "/t,1,0"}[k]
	}}
	s.append(`{"type":"api-request-shape","sessionId":"s1","timestamp":"2026-12-01T10:00:00Z","shape":{"tools":[{"name":"Bash"},{"name":"Edit"},{"name":"Write"}]}}`)
	return s
}

func (s *session) append(lines ...string) {
	f, err := os.OpenFile(s.transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		f.WriteString(l + "\n")
	}
}

// call is a reply with one tool call, as Claude writes it.
func call(id, tool, input, ts string) string {
	return `{"isSidechain":false,"type":"assistant","timestamp":"` + ts + `","sessionId":"s1","cwd":"/w","message":{"id":"msg_` + id +
		`","model":"claude-opus-5-5","stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":1},"content":[{"type":"tool_use","id":"` + id + `","name":"` + tool + `","input":` + input + `}]}}`
}

func (s *session) hook(event string, extra string) *status.Status {
	s.t.Helper()
	in, err := ParseInput([]byte(`{"session_id":"s1","transcript_path":"` + s.transcript + `","cwd":"/w","hook_event_name":"` + event + `"` + extra + `}`))
	if err != nil {
		s.t.Fatal(err)
	}
	if event == "statusLine" {
		_, err = s.w.StatusLine(in)
	} else {
		_, err = s.w.Hook(in)
	}
	if err != nil {
		s.t.Fatalf("%s: %v", event, err)
	}
	got, err := s.dir.Read("s1")
	if err != nil {
		s.t.Fatalf("%s: %v", event, err)
	}
	return got
}

// The after-tool hook settles the call it reports (Claude writes the
// result only after it), and the next hooks keep it settled; a file
// created, then edited, stays created.
func TestAfterToolSettlesAndCreatedStays(t *testing.T) {
	s := newSession(t)
	s.hook("SessionStart", "")
	s.append(call("toolu_w", "Write", `{"file_path":"/w/notes.txt","content":"SECRET"}`, "2026-12-01T10:00:01Z"))
	got := s.hook("PostToolUse", `,"tool_name":"Write","tool_use_id":"toolu_w","tool_input":{"file_path":"/w/notes.txt"},"tool_response":{"type":"create"}`)
	if len(got.Recent) != 1 || got.Recent[0].Outcome != status.OK || len(got.Outputs) != 1 || got.Outputs[0].Action != status.Created {
		t.Fatalf("after the Write: recent %+v outputs %+v", got.Recent, got.Outputs)
	}
	s.append(call("toolu_e", "Edit", `{"file_path":"/w/notes.txt","old_string":"a","new_string":"b"}`, "2026-12-01T10:00:02Z"))
	got = s.hook("PostToolUseFailure", `,"tool_name":"Bash","tool_use_id":"toolu_e"`)
	if got.Recent[0].Outcome != status.Error {
		t.Errorf("a failed call: %+v", got.Recent[0])
	}
	got = s.hook("PostToolUse", `,"tool_name":"Edit","tool_use_id":"toolu_e","tool_input":{"file_path":"/w/notes.txt"},"tool_response":{"filePath":"/w/notes.txt"}`)
	if got.Outputs[0].Action != status.Created {
		t.Errorf("created, then edited: %+v", got.Outputs)
	}
	got = s.hook("Notification", "")
	if got.Recent[1].Outcome != status.OK || got.Outputs[0].Action != status.Created {
		t.Errorf("the next hook: recent %+v outputs %+v", got.Recent, got.Outputs)
	}
}

// The window Claude's statusLine said is kept for the session: a print-mode
// run of it (no statusLine) knows it. After a compaction the context is
// the postTokens Claude recorded, whatever the statusLine says of it.
func TestWindowKeptAndCompaction(t *testing.T) {
	s := newSession(t)
	s.append(`{"isSidechain":false,"type":"assistant","timestamp":"2026-12-01T10:00:01Z","sessionId":"s1","message":{"id":"msg_1","model":"claude-opus-5-5","stop_reason":"end_turn","usage":{"input_tokens":40000,"output_tokens":5},"content":[{"type":"text","text":"hi"}]}}`)
	line := `,"model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":40000}}`
	got := s.hook("statusLine", line)
	if got.Model.Name != "Opus 5.5" || got.Context.Window == nil || *got.Context.Window != 200000 || got.Context.Percent == nil || *got.Context.Percent != 20 {
		t.Fatalf("model %+v context %+v", got.Model, got.Context)
	}
	if got = s.hook("Stop", ""); got.Model.Name != "Opus 5.5" {
		t.Errorf("a hook after the statusLine: model %+v", got.Model)
	}
	s.append(`{"isSidechain":false,"type":"system","subtype":"compact_boundary","timestamp":"2026-12-01T10:00:02Z","sessionId":"s1","compactMetadata":{"preTokens":40005,"postTokens":900}}`)
	got = s.hook("statusLine", `,"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":0}}`)
	if got.Context.Tokens == nil || *got.Context.Tokens != 900 || got.Context.Percent == nil || *got.Context.Percent != float64(900)/200000*100 {
		t.Errorf("after a compaction: context %v %v %v, want Claude's postTokens 900 of 200000", deref(got.Context.Tokens), deref(got.Context.Window), deref(got.Context.Percent))
	}
	if err := s.w.End("s1"); err != nil {
		t.Fatal(err)
	}
	got = s.hook("SessionStart", "")
	if got.Context.Window == nil || *got.Context.Window != 200000 {
		t.Errorf("the next run: context %+v, want the window kept", got.Context)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
