package claude_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jig/internal/scriptedanthropic"
)

// TestClaudeIgnoresCommentedSettings is why `jig install claude` refuses a
// settings.json with a comment instead of editing it keeping the comment:
// the real Claude Code reads such a file as no settings at all, so jig's
// hooks in it never run (no status file appears while a turn is under
// way); and jig says so, naming the line, and leaves the file as it is.
func TestClaudeIgnoresCommentedSettings(t *testing.T) {
	w := newWorld(t)
	path := filepath.Join(w.home, ".claude", "settings.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	commented := strings.Replace(string(data), "{", "{\n  // the user's note\n", 1)
	if err := os.WriteFile(path, []byte(commented), 0o600); err != nil {
		t.Fatal(err)
	}
	run := w.startPrint("hello")
	w.waitRequests(1)
	if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) != 0 {
		t.Errorf("Claude ran jig's hooks from a commented settings.json (%v): jig could keep comments instead of refusing them", files)
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "hi"})
	run.result(t)

	install := exec.Command(w.jig, "install", "claude")
	install.Env = w.env()
	out, err := install.CombinedOutput()
	if code := install.ProcessState.ExitCode(); code != 4 || !strings.Contains(string(out), "line 2: a comment") {
		t.Errorf("jig install claude over a commented file: exit %d, %s; want exit 4 naming line 2", code, out)
	}
	if after, _ := os.ReadFile(path); string(after) != commented {
		t.Errorf("the refused file changed:\n%s", after)
	}
}
