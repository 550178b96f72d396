package claude

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
// since the last one (a Notification, a second hook of the same call): the
// cursor read, the transcript stat'ed, the file compared and left alone.
// The process around it is bench/hooks.sh's.
func BenchmarkHookNothingChanged(b *testing.B) {
	dir := b.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"message":{"content":[{"id":"toolu_%d","input":{"file_path":"/w/f%d.go"},"name":"Edit","type":"tool_use"}],"id":"msg_%d","model":"claude-opus-5-5","role":"assistant","stop_reason":"tool_use","type":"message","usage":{"input_tokens":1000,"cache_creation_input_tokens":0,"cache_read_input_tokens":500,"output_tokens":40}},"type":"assistant","timestamp":"2026-11-30T12:00:00Z","cwd":"/w","sessionId":"s1"}`, i, i, i),
			fmt.Sprintf(`{"isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"ok"}]},"timestamp":"2026-11-30T12:00:01Z","toolUseResult":{"filePath":"/w/f%d.go"},"sessionId":"s1"}`, i, i))
	}
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	w := &Writer{Dir: &status.Dir{Root: filepath.Join(dir, "state")}, Now: time.Now, Host: "bench", PID: os.Getpid(),
		Getenv: func(k string) string { return map[string]string{"TMUX_PANE": "%1", "TMUX": "/t,1,0", "HOME": dir}[k] }}
	in := &Input{SessionID: "s1", TranscriptPath: transcript, CWD: "/w", Event: "Notification"}
	if _, err := w.Hook(in); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.Hook(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreToolUseNothingNew is a PreToolUse hook of a call whose entry
// an earlier hook read, nothing switched off: the switches read for the
// refusal, then as BenchmarkHookNothingChanged.
func BenchmarkPreToolUseNothingNew(b *testing.B) {
	dir := b.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"message":{"content":[{"id":"toolu_%d","input":{"file_path":"/w/f%d.go"},"name":"Edit","type":"tool_use"}],"id":"msg_%d","model":"claude-opus-5-5","role":"assistant","stop_reason":"tool_use","type":"message","usage":{"input_tokens":1000,"cache_creation_input_tokens":0,"cache_read_input_tokens":500,"output_tokens":40}},"type":"assistant","timestamp":"2026-11-30T12:00:00Z","cwd":"/w","sessionId":"s1"}`, i, i, i))
	}
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	w := &Writer{Dir: &status.Dir{Root: filepath.Join(dir, "state")}, Now: time.Now, Host: "bench", PID: os.Getpid(),
		Getenv: func(k string) string { return map[string]string{"TMUX_PANE": "%1", "TMUX": "/t,1,0", "HOME": dir}[k] }}
	in := &Input{SessionID: "s1", TranscriptPath: transcript, CWD: "/w", Event: "PreToolUse", ToolName: "Edit", ToolUseID: "toolu_199"}
	if out, err := w.Hook(in); err != nil || out != nil {
		b.Fatal(out, err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.Hook(in); err != nil {
			b.Fatal(err)
		}
	}
}
