package codex_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/codex"
	"jig/hook"
	"jig/hook/hooktest"
)

// codexEvents are Codex's names of the kit's events (it sends no
// notifications).
var codexEvents = map[hook.Kind]string{
	hook.Start: "SessionStart", hook.Prompt: "UserPromptSubmit", hook.PreTool: "PreToolUse", hook.PostTool: "PostToolUse",
	hook.Permission: "PermissionRequest", hook.Working: "PreCompact", hook.Stop: "Stop", hook.End: "SessionEnd",
}

// appendLines appends rollout lines to path.
func appendLines(t testing.TB, path string, lines ...string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(strings.Join(lines, "\n") + "\n")
}

// functionCall is the rollout's record of a call of tool (the model's
// name), not yet ended.
func functionCall(id, tool string) string {
	return fmt.Sprintf(`{"timestamp":"2026-12-01T10:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":%q,"arguments":"{}","call_id":%q}}`, tool, id)
}

// codexHarness is Codex as the hook kit's conformance suite drives it:
// its hook's stdin, its answer, its rollout.
var codexHarness = hooktest.Harness{
	Stdin: func(ev hooktest.Event) []byte {
		fields := map[string]any{"session_id": ev.Session, "cwd": ev.CWD, "hook_event_name": codexEvents[ev.Kind], "transcript_path": ev.Transcript,
			"model": "gpt-5.5", "turn_id": "turn-1"}
		if ev.Tool != "" {
			fields["tool_name"], fields["tool_use_id"], fields["tool_input"] = ev.Tool, ev.CallID, ev.Input
		}
		data, _ := json.Marshal(fields)
		return data
	},
	Hook: func(h *hook.Hooks, stdin []byte) ([]byte, error) {
		return (&codex.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}).Stdin(bytes.NewReader(stdin))
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
			t.Errorf("not Codex's refusal: %s", out)
		}
		return got.HookSpecificOutput.PermissionDecisionReason
	},
	// A rollout that called every tool named: Codex lets a request switch
	// a tool the model called.
	Transcript: func(t testing.TB, dir, session string, tools []string) string {
		path := filepath.Join(dir, "codex", "sessions", "rollout-"+session+".jsonl")
		os.MkdirAll(filepath.Dir(path), 0o700)
		lines := []string{`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + session + `","timestamp":"2026-12-01T10:00:00Z","cwd":"/work/suite","model_provider":"openai"}}`,
			`{"timestamp":"2026-12-01T10:00:00.000Z","type":"turn_context","payload":{"cwd":"/work/suite","model":"gpt-5.5","effort":"low"}}`}
		for i, name := range tools {
			lines = append(lines, functionCall(fmt.Sprintf("call_seed%02d", i), name))
		}
		appendLines(t, path, lines...)
		return path
	},
	Call: func(t testing.TB, transcript, id, tool string) {
		names := map[string]string{"Bash": "exec_command"}
		if n, ok := names[tool]; ok {
			tool = n
		}
		appendLines(t, transcript, functionCall(id, tool))
	},
	Env: func(root string) map[string]string {
		return map[string]string{"CODEX_HOME": filepath.Join(root, "codex")}
	},
	Tool: "Bash", Switch: "exec_command", Other: "apply_patch",
}

// TestConformance: Codex keeps every promise of the hook kit.
func TestConformance(t *testing.T) { hooktest.Run(t, codexHarness) }
