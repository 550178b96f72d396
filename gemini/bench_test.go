package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// BenchmarkBeforeToolNothingNew is a BeforeTool hook's own work when the
// record has nothing new since the last hook (a second call of one reply):
// the switches read for the refusal, the record found current by its
// cursor, the call recorded pending. The process around it is not counted.
func BenchmarkBeforeToolNothingNew(b *testing.B) {
	dir := b.TempDir()
	record := filepath.Join(dir, "session.jsonl")
	lines := []string{`{"sessionId":"s1","projectHash":"h","startTime":"2026-12-01T10:00:00.000Z","kind":"main"}`}
	for i := range 200 {
		lines = append(lines, fmt.Sprintf(`{"id":"m%d","timestamp":"2026-12-01T10:00:01.000Z","type":"gemini","content":"","model":"gemini-2.5-flash",`+
			`"tokens":{"input":1000,"output":40,"cached":500,"thoughts":0,"tool":0,"total":1040},`+
			`"toolCalls":[{"id":"c%d","name":"replace","args":{},"status":"success","resultDisplay":{"filePath":"/w/f%d.go","isNewFile":false}}]}`, i, i, i))
	}
	if err := os.WriteFile(record, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	h := &Hooks{Dir: &status.Dir{Root: filepath.Join(dir, "state")}, Now: time.Now, Host: "bench", PID: os.Getpid(),
		Getenv: func(k string) string { return map[string]string{"TMUX_PANE": "%1", "TMUX": "/t,1,0", "HOME": dir}[k] }}
	in := &Input{SessionID: "s1", TranscriptPath: record, CWD: "/w", Event: "BeforeTool", ToolName: "replace"}
	if _, err := h.Hook(in); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if out, err := h.Hook(in); err != nil || out != nil {
			b.Fatal(out, err)
		}
	}
}
