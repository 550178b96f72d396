package qwen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"jig/hook"
	"jig/hook/hooktest"
	"jig/qwen"
)

// qwenEvents are Qwen Code's names of the kit's events (Claude Code's).
var qwenEvents = map[hook.Kind][2]string{
	hook.Start: {"SessionStart"}, hook.Prompt: {"UserPromptSubmit"}, hook.PreTool: {"PreToolUse"},
	hook.PostTool: {"PostToolUse"}, hook.ToolFailed: {"PostToolUseFailure"}, hook.Permission: {"PermissionRequest"},
	hook.PermissionNotice: {"Notification", "permission_prompt"},
	hook.Working:          {"PreCompact"}, hook.Stop: {"Stop"}, hook.End: {"SessionEnd"},
}

// assistantCall is Qwen's transcript record of the model calling tool.
func assistantCall(session, id, tool string) []byte {
	line, _ := json.Marshal(map[string]any{"uuid": "u-" + id, "sessionId": session, "timestamp": "2026-12-01T10:00:01Z",
		"type": "assistant", "cwd": "/work/suite", "model": "scripted-qwen",
		"message":       map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"id": id, "name": tool, "args": map[string]string{}}}}},
		"usageMetadata": map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 1}})
	return append(line, '\n')
}

// qwenHarness is Qwen Code as the hook kit's conformance suite drives it:
// its hook's stdin (Claude's shape, the call's model id as tool_call_id),
// its answer, its transcript.
var qwenHarness = hooktest.Harness{
	Stdin: func(ev hooktest.Event) []byte {
		name := qwenEvents[ev.Kind]
		fields := map[string]any{"session_id": ev.Session, "cwd": ev.CWD, "hook_event_name": name[0], "transcript_path": ev.Transcript,
			"permission_mode": "default"}
		if name[1] != "" {
			fields["notification_type"], fields["message"] = name[1], "Qwen Code needs your permission"
		}
		if ev.Tool != "" {
			fields["tool_name"], fields["tool_input"] = ev.Tool, ev.Input
			fields["tool_use_id"], fields["tool_call_id"] = "toolu_"+ev.CallID, ev.CallID
		}
		data, _ := json.Marshal(fields)
		return data
	},
	Hook: func(h *hook.Hooks, stdin []byte) ([]byte, error) {
		return (&qwen.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}).Stdin(bytes.NewReader(stdin))
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
			t.Errorf("not Qwen's refusal: %s", out)
		}
		return got.HookSpecificOutput.PermissionDecisionReason
	},
	// A transcript whose model called every tool named.
	Transcript: func(t testing.TB, dir, session string, tools []string) string {
		path := filepath.Join(dir, ".qwen", "projects", "-work-suite", "chats", session+".jsonl")
		os.MkdirAll(filepath.Dir(path), 0o700)
		var data []byte
		for i, name := range tools {
			data = append(data, assistantCall(session, fmt.Sprintf("call_seed%02d", i), name)...)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	},
	Call: func(t testing.TB, transcript, id, tool string) {
		f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.Write(assistantCall("s", id, tool))
	},
	Tool: "run_shell_command", Switch: "run_shell_command", Other: "write_file",
}

// TestConformance: Qwen Code keeps every promise of the hook kit.
func TestConformance(t *testing.T) { hooktest.Run(t, qwenHarness) }
