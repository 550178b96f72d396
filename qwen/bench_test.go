package qwen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// BenchmarkPreToolUseNothingNew is a hook's own work when nothing changed
// since the last one (the PreToolUse of a call the last hook read): the
// switches read for the refusal, the cursor read, the transcript stat'ed,
// the file compared and left alone.
func BenchmarkPreToolUseNothingNew(b *testing.B) {
	dir := b.TempDir()
	var lines []string
	for i := range 200 {
		at := fmt.Sprintf("2026-12-01T10:%02d:%02d.000Z", i/60, i%60)
		lines = append(lines,
			`{"uuid":"a`+fmt.Sprint(i)+`","sessionId":"s1","timestamp":"`+at+`","type":"assistant","cwd":"/w","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"id":"c`+fmt.Sprint(i)+`","name":"write_file","args":{"file_path":"/w/f`+fmt.Sprint(i)+`.go","content":"package f"}}}]},"usageMetadata":{"promptTokenCount":`+fmt.Sprint(1000*(i+1))+`,"candidatesTokenCount":40,"cachedContentTokenCount":500}}`,
			`{"uuid":"r`+fmt.Sprint(i)+`","sessionId":"s1","timestamp":"`+at+`","type":"tool_result","cwd":"/w","message":{"role":"user","parts":[{"functionResponse":{"id":"c`+fmt.Sprint(i)+`","name":"write_file","response":{"output":"Successfully created and wrote to new file: /w/f.go."}}}]},"toolCallResult":{"callId":"c`+fmt.Sprint(i)+`","status":"success"}}`)
	}
	lines = append(lines, `{"uuid":"z","sessionId":"s1","timestamp":"2026-12-01T11:00:00.000Z","type":"assistant","cwd":"/w","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"id":"last","name":"read_file","args":{"file_path":"/w/a.go"}}}]}}`)
	transcript := filepath.Join(dir, "s1.jsonl")
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	h := &Hooks{Dir: &status.Dir{Root: filepath.Join(dir, "state")}, Now: time.Now, Host: "bench", PID: os.Getpid(),
		Getenv: func(k string) string { return map[string]string{"TMUX_PANE": "%1", "TMUX": "/t,1,0", "HOME": dir}[k] }}
	in := &Input{SessionID: "s1", TranscriptPath: transcript, CWD: "/w", Event: "PreToolUse", ToolName: "read_file", ToolUseID: "toolu_1", ToolCallID: "last"}
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
