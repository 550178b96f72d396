package claude_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"jig/internal/scriptedanthropic"
	"jig/status"
)

// recordEvents adds a hook of the test's own to Claude's settings for
// each event, which appends the event's name to a file: when a line is
// there, Claude ran jig's hook for that event too.
func recordEvents(t *testing.T, w *world, events ...string) string {
	t.Helper()
	log := filepath.Join(w.marks, "events.log")
	settings := filepath.Join(w.home, ".claude", "settings.json")
	var cfg map[string]any
	data, _ := os.ReadFile(settings)
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	hooks := cfg["hooks"].(map[string]any)
	for _, ev := range events {
		list, _ := hooks[ev].([]any)
		hooks[ev] = append(list, map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": "cat >/dev/null; echo " + ev + " >> '" + log + "'"}}})
	}
	data, _ = json.MarshalIndent(cfg, "", "  ")
	os.WriteFile(settings, data, 0o600)
	return log
}

// TestAskUserQuestionInTmux: the real Claude 2.1.328 runs AskUserQuestion
// with a PreToolUse, a PermissionRequest and a permission_prompt
// Notification while its screen shows the question. The file says one
// question (not a permission), and `jig session watch --on attention`
// hears of it once.
func TestAskUserQuestionInTmux(t *testing.T) {
	w := newWorld(t)
	log := recordEvents(t, w, "PermissionRequest", "Notification") // before Claude starts: it reads them at once
	c := startInTmux(t, w, []string{})
	heard := filepath.Join(w.marks, "heard.log")
	watch := exec.Command(w.jig, "session", "watch", "--all", "--on", "attention", "--exec",
		`echo "$JIG_ATTENTION $JIG_TOOL" >> '`+heard+`'`)
	watch.Env = w.env("TMUX=", "TMUX_PANE=")
	watch.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-watch.Process.Pid, syscall.SIGKILL); watch.Wait() })

	ask, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{
		"question": "Which colour should the button be?", "header": "Colour", "multiSelect": false,
		"options": []any{map[string]any{"label": "Red", "description": "warm"}, map[string]any{"label": "Blue", "description": "cool"}}}}})
	w.model.Queue(
		scriptedanthropic.Reply{Text: "Asking.", ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_q1", Name: "AskUserQuestion", Input: string(ask)}},
			Usage: scriptedanthropic.Usage{Input: 600, Output: 20}},
		scriptedanthropic.Reply{Text: "Red it is.", Usage: scriptedanthropic.Usage{Input: 900, Output: 10}},
	)
	c.typeLine("ask me")
	poll(t, "Claude shows the question and has run its hooks for it", func() string {
		events, _ := os.ReadFile(log)
		if sc := c.screen(); !strings.Contains(sc, "Which colour should the button be?") ||
			!strings.Contains(string(events), "PermissionRequest") || !strings.Contains(string(events), "Notification") {
			return fmt.Sprintf("events %q; screen:\n%s", events, sc)
		}
		return ""
	})
	s := c.find()
	if s == nil || s.Attention == nil || s.Attention.Kind != status.AttentionQuestion || s.Attention.Tool != "AskUserQuestion" {
		t.Errorf("while Claude asks: %+v, want a question of AskUserQuestion", s.Attention)
	}
	poll(t, "the watcher hears of the question", func() string {
		if got, _ := os.ReadFile(heard); !strings.Contains(string(got), "question AskUserQuestion") {
			return fmt.Sprintf("heard %q", got)
		}
		return ""
	})
	c.keys("Enter") // "1. Red"
	poll(t, "the answer ends the wait", func() string {
		if s := c.find(); s == nil || s.Attention != nil || s.State != status.Idle {
			return "still waiting or busy; screen:\n" + c.screen()
		}
		return ""
	})
	if got, _ := os.ReadFile(heard); strings.Count(string(got), "\n") != 1 {
		t.Errorf("the watcher heard %q: one question, one notification", got)
	}
	c.typeLine("/exit")
	poll(t, "SessionEnd removes the file", func() string {
		if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) > 0 {
			return fmt.Sprintf("still there: %v; screen:\n%s", files, c.screen())
		}
		return ""
	})
}

// postTokens is the postTokens of the transcript's latest compaction, as
// Claude recorded it.
func postTokens(transcript string) (int64, bool) {
	data, err := os.ReadFile(transcript)
	if err != nil {
		return 0, false
	}
	var post int64
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		var e struct {
			Subtype string `json:"subtype"`
			Meta    *struct {
				PostTokens *int64 `json:"postTokens"`
			} `json:"compactMetadata"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Subtype == "compact_boundary" && e.Meta != nil && e.Meta.PostTokens != nil {
			post, found = *e.Meta.PostTokens, true
		}
	}
	return post, found
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
