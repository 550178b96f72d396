package claude_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"jig/claude"
	"jig/hook"
	"jig/hook/hooktest"
)

// claudeEvents are Claude Code's names of the kit's events.
var claudeEvents = map[hook.Kind][2]string{
	hook.Start: {"SessionStart"}, hook.Prompt: {"UserPromptSubmit"}, hook.PreTool: {"PreToolUse"},
	hook.PostTool: {"PostToolUse"}, hook.ToolFailed: {"PostToolUseFailure"}, hook.Permission: {"PermissionRequest"},
	hook.PermissionNotice: {"Notification", "permission_prompt"}, hook.Question: {"Notification", "elicitation_dialog"},
	hook.Working: {"PreCompact"}, hook.Stop: {"Stop"}, hook.End: {"SessionEnd"},
}

// claudeHarness is Claude Code as the hook kit's conformance suite drives
// it: its hook's stdin, its answer, its transcript.
var claudeHarness = hooktest.Harness{
	Stdin: func(ev hooktest.Event) []byte {
		name := claudeEvents[ev.Kind]
		fields := map[string]any{"session_id": ev.Session, "cwd": ev.CWD, "hook_event_name": name[0], "transcript_path": ev.Transcript}
		if name[1] != "" {
			fields["notification_type"] = name[1]
			fields["message"] = "Claude needs your permission"
		}
		if ev.Tool != "" {
			fields["tool_name"], fields["tool_use_id"], fields["tool_input"] = ev.Tool, ev.CallID, ev.Input
		}
		data, _ := json.Marshal(fields)
		return data
	},
	Hook: func(h *hook.Hooks, stdin []byte) ([]byte, error) {
		w := &claude.Writer{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}
		return w.HookStdin(bytes.NewReader(stdin))
	},
	Denied: func(t testing.TB, out []byte) string {
		t.Helper()
		if len(out) == 0 {
			return ""
		}
		var got struct {
			HookSpecificOutput struct{ HookEventName, PermissionDecision, PermissionDecisionReason string }
		}
		if err := json.Unmarshal(out, &got); err != nil || got.HookSpecificOutput.HookEventName != "PreToolUse" ||
			got.HookSpecificOutput.PermissionDecision != "deny" {
			t.Errorf("not Claude's refusal: %s", out)
		}
		return got.HookSpecificOutput.PermissionDecisionReason
	},
	Transcript: func(t testing.TB, dir, session string, tools []string) string {
		path := filepath.Join(dir, ".claude", "projects", "-work-suite", session+".jsonl")
		os.MkdirAll(filepath.Dir(path), 0o700)
		var offered []map[string]string
		for _, name := range tools {
			offered = append(offered, map[string]string{"name": name})
		}
		shape, _ := json.Marshal(map[string]any{"type": "api-request-shape", "sessionId": session, "timestamp": "2026-12-01T10:00:00Z",
			"shape": map[string]any{"tools": offered}})
		if err := os.WriteFile(path, append(shape, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	},
	Call: func(t testing.TB, transcript, id, tool string) {
		line, _ := json.Marshal(map[string]any{"isSidechain": false, "type": "assistant", "timestamp": "2026-12-01T10:00:01Z", "sessionId": "s", "cwd": "/work/suite",
			"message": map[string]any{"id": "msg_" + id, "model": "claude-opus-5-5", "stop_reason": "tool_use", "usage": map[string]int{"input_tokens": 10, "output_tokens": 1},
				"content": []map[string]any{{"type": "tool_use", "id": id, "name": tool, "input": map[string]string{}}}}})
		f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.Write(append(line, '\n'))
	},
	Tool: "Bash", Switch: "Bash", Other: "Write",
}

// TestConformance: Claude Code keeps every promise of the hook kit.
func TestConformance(t *testing.T) { hooktest.Run(t, claudeHarness) }
