package gemini_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/gemini"
	"jig/hook"
	"jig/hook/hooktest"
)

// geminiEvents are Gemini CLI's names of the kit's events; a permission
// prompt is a Notification (ToolPermission), which names no tool.
var geminiEvents = map[hook.Kind]string{
	hook.Start: "SessionStart", hook.Prompt: "BeforeAgent", hook.PreTool: "BeforeTool", hook.PostTool: "AfterTool",
	hook.Permission: "Notification", hook.Working: "PreCompress", hook.Stop: "AfterAgent", hook.End: "SessionEnd",
}

func appendLines(t testing.TB, path string, lines ...string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(strings.Join(lines, "\n") + "\n")
}

// modelMessage is the record's model message with one call of tool, in
// the state Gemini CLI names.
func modelMessage(msgID, callID, tool, state string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-12-01T10:00:01.000Z","type":"gemini","content":"","model":"gemini-2.5-flash",`+
		`"tokens":{"input":100,"output":5,"cached":0,"thoughts":0,"tool":0,"total":105},`+
		`"toolCalls":[{"id":%q,"name":%q,"args":{},"status":%q,"timestamp":"2026-12-01T10:00:01.000Z"}]}`, msgID, callID, tool, state)
}

// geminiHarness is Gemini CLI as the hook kit's conformance suite drives
// it: its hook's stdin, its answer, its chat record.
var geminiHarness = hooktest.Harness{
	Stdin: func(ev hooktest.Event) []byte {
		fields := map[string]any{"session_id": ev.Session, "cwd": ev.CWD, "hook_event_name": geminiEvents[ev.Kind],
			"transcript_path": ev.Transcript, "timestamp": "2026-12-01T10:00:02.000Z"}
		switch {
		case ev.Kind == hook.Permission:
			fields["notification_type"], fields["message"], fields["details"] = "ToolPermission", "Tool Confirm", ev.Input
		case ev.Tool != "":
			fields["tool_name"], fields["tool_input"] = ev.Tool, ev.Input // BeforeTool names no call id
		}
		data, _ := json.Marshal(fields)
		return data
	},
	Hook: func(h *hook.Hooks, stdin []byte) ([]byte, error) {
		return (&gemini.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}).Stdin(bytes.NewReader(stdin))
	},
	Denied: func(t testing.TB, out []byte) string {
		t.Helper()
		if len(out) == 0 {
			return ""
		}
		var got struct{ Decision, Reason string }
		if err := json.Unmarshal(out, &got); err != nil || got.Decision != "deny" {
			t.Errorf("not Gemini's refusal: %s", out)
		}
		return got.Reason
	},
	// A record whose model called every tool named: Gemini lets a request
	// switch a tool the model called.
	Transcript: func(t testing.TB, dir, session string, tools []string) string {
		path := filepath.Join(dir, ".gemini", "tmp", "suite", "chats", "session-2026-12-01T10-00-"+session+".jsonl")
		os.MkdirAll(filepath.Dir(path), 0o700)
		lines := []string{`{"sessionId":"` + session + `","projectHash":"h","startTime":"2026-12-01T10:00:00.000Z","lastUpdated":"2026-12-01T10:00:00.000Z","kind":"main"}`}
		for i, name := range tools {
			lines = append(lines, modelMessage(fmt.Sprintf("m-seed%02d", i), fmt.Sprintf("c-seed%02d", i), name, "success"))
		}
		appendLines(t, path, lines...)
		return path
	},
	// A call not ended yet (Gemini CLI 0.61.0 records one only with its
	// result, after AfterTool; the reader takes an earlier one pending).
	Call: func(t testing.TB, transcript, id, tool string) {
		appendLines(t, transcript, modelMessage("m-"+id, id, tool, "executing"))
	},
	Tool: "run_shell_command", Switch: "run_shell_command", Other: "write_file",
}

// TestConformance: Gemini CLI keeps every promise of the hook kit.
func TestConformance(t *testing.T) { hooktest.Run(t, geminiHarness) }
