package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// FuzzHook: whatever Codex pipes to the hook, it never panics; it refuses
// the input whole, or writes a file that validates, or removes it; and a
// value it does not read (a tool's input, the prompt) never reaches the
// state dir.
func FuzzHook(f *testing.F) {
	for _, ev := range Events() {
		f.Add([]byte(`{"session_id":"s1","hook_event_name":"` + ev + `","cwd":"/w","tool_name":"Bash","tool_use_id":"c1",` +
			`"tool_input":{"command":"SECRET-FUZZ"},"prompt":"SECRET-FUZZ","model":"gpt-5.5","source":"resume"}`))
	}
	f.Add([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"rel","tool_name":"\u001b]0;x","model":"\u0000"}`))
	f.Add([]byte(`{"session_id":"a/b","hook_event_name":"PermissionRequest","tool_name":"apply_patch","turn_id":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			return // refused whole
		}
		in.TranscriptPath = "" // the reader has its own fuzz target; no file of the machine's is read here
		root := t.TempDir()
		state := &status.Dir{Root: filepath.Join(root, "state")}
		h := &Hooks{Dir: state, Now: time.Now, Getenv: func(k string) string { return map[string]string{"CODEX_HOME": root}[k] },
			Host: "fuzz", PID: os.Getpid()}
		if _, err := h.Hook(in); err != nil {
			return // said, and nothing half done
		}
		if got, err := state.Read(in.SessionID); err == nil {
			if err := got.Validate(); err != nil {
				t.Fatalf("the file fails Validate: %v", err)
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the file cannot be read: %v", err)
		}
		if strings.Contains(in.SessionID+in.CWD+in.Model+in.ToolName, "SECRET-FUZZ") {
			return // a field the status keeps by design holds it (Go reads "Cwd" as "cwd")
		}
		noValuesIn(t, state.Root, "SECRET-FUZZ")
	})
}
