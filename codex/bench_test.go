package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// BenchmarkHookNothingChanged is a hook's own work when nothing changed
// since the last one (the second PreToolUse of a call, a repeated
// prompt): the switches read for the refusal, the cursor read, the rollout
// stat'ed, the file compared and left alone. The process around it is
// bench/hooks.sh's.
func BenchmarkHookNothingChanged(b *testing.B) {
	dir := b.TempDir()
	rollout := writeBenchRollout(b, dir, 200)
	h := &Hooks{Dir: &status.Dir{Root: filepath.Join(dir, "state")}, Now: time.Now, Host: "bench", PID: os.Getpid(),
		Getenv: func(k string) string { return map[string]string{"TMUX_PANE": "%1", "TMUX": "/t,1,0", "HOME": dir}[k] }}
	in := &Input{SessionID: "s1", TranscriptPath: rollout, CWD: "/w", Event: "PreToolUse", ToolName: "Bash", ToolUseID: "c199"}
	if _, err := h.Hook(in); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := h.Hook(in); err != nil {
			b.Fatal(err)
		}
	}
}

// writeBenchRollout writes a rollout of n commands and n patches, each
// with its result and Codex's counts.
func writeBenchRollout(b *testing.B, dir string, n int) string {
	lines := []string{`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","model_provider":"openai"}}`,
		`{"timestamp":"2026-12-01T10:00:00.000Z","type":"event_msg","payload":{"type":"task_started","model_context_window":258400}}`,
		`{"timestamp":"2026-12-01T10:00:00.000Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5","effort":"medium"}}`}
	for i := range n {
		at := fmt.Sprintf("2026-12-01T10:%02d:%02d.000Z", i/60, i%60)
		lines = append(lines,
			`{"timestamp":"`+at+`","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go test ./...\"}","call_id":"c`+fmt.Sprint(i)+`"}}`,
			`{"timestamp":"`+at+`","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c`+fmt.Sprint(i)+`","status":"completed","exit_code":0}}}`,
			`{"timestamp":"`+at+`","type":"response_item","payload":{"type":"function_call_output","call_id":"c`+fmt.Sprint(i)+`","output":"ok"}}`,
			`{"timestamp":"`+at+`","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"p`+fmt.Sprint(i)+`"}}`,
			`{"timestamp":"`+at+`","type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"p`+fmt.Sprint(i)+`","status":"completed","changes":{"/w/f`+fmt.Sprint(i)+`.go":{"type":"update"}}}}}`,
			`{"timestamp":"`+at+`","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":`+fmt.Sprint(1000*(i+1))+`,"cached_input_tokens":500,"output_tokens":40,"total_tokens":1040},"last_token_usage":{"input_tokens":1000,"output_tokens":40,"total_tokens":1040},"model_context_window":258400}}}`)
	}
	path := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}
