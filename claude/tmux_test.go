package claude_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedanthropic"
	"jig/internal/testsrc"
	"jig/status"
)

func poll(t *testing.T, what string, check func() string) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if last = check(); last == "" {
			return
		}
	}
	t.Fatalf("%s: %s", what, last)
}

// TestInteractiveInTmux runs Claude Code as a user does, in a real tmux
// pane: its statusLine runs jig's command, `jig session for-terminal
// $TMUX_PANE` finds the session, tmux's status line shows its model and
// context percentage, and the cost in the file is Claude's own after each
// step.
func TestInteractiveInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t)
	// What a first start asks (theme, trust, the API key) is answered
	// beforehand, as after a user's first run.
	key := "sk-ant-scripted-0123456789abcdefghij"
	seed, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 1,
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{w.work: map[string]any{"hasTrustDialogAccepted": true}},
	})
	if err := os.WriteFile(filepath.Join(w.home, ".claude.json"), seed, 0o600); err != nil {
		t.Fatal(err)
	}
	// The statusLine command records what Claude pipes in beside printing.
	sl := filepath.Join(w.marks, "statusline.json")
	settings := filepath.Join(w.home, ".claude", "settings.json")
	var cfg map[string]any
	data, _ := os.ReadFile(settings)
	json.Unmarshal(data, &cfg)
	line := cfg["statusLine"].(map[string]any)
	line["command"] = "tee " + sl + " | " + line["command"].(string) + " --preset plain"
	cfg["permissions"] = map[string]any{"defaultMode": "default", "allow": []string{"Bash"}}
	data, _ = json.MarshalIndent(cfg, "", "  ")
	os.WriteFile(settings, data, 0o600)

	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.marks)
	inner, outer := testsrc.NewTmux(t, "claude-inner", env), testsrc.NewTmux(t, "claude-outer", env)
	conf := filepath.Join(w.marks, "tmux.conf")
	os.WriteFile(conf, []byte("set -g status-interval 1\nset -g status-right-length 80\nset -g remain-on-exit on\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n"), 0o600)
	pane := inner.Run("-f", conf, "new-session", "-d", "-s", "cc", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}",
		"env JIG_STATE_DIR="+w.state+" "+w.claude)
	screen := func() string { return inner.Run("capture-pane", "-p", "-t", pane) }

	// The statusLine runs as soon as Claude's prompt shows: the session is
	// found by its pane.
	poll(t, "Claude's statusLine runs jig claude statusline", func() string {
		if _, err := os.Stat(sl); err != nil {
			s := screen()
			if strings.Contains(s, "Make auto mode your default permission mode?") {
				// A first-run question Claude sometimes asks (seen when the
				// machine is busy): answered as a user would, "No".
				inner.Run("send-keys", "-t", pane, "Down", "Enter")
			}
			return "no statusLine run yet; screen:\n" + s
		}
		return ""
	})
	find := func() *status.Status {
		cmd := exec.Command(w.jig, "session", "for-terminal", pane, "--json")
		cmd.Env = w.env()
		out, err := cmd.Output()
		if err != nil {
			return nil
		}
		s, _ := status.Decode(out)
		return s
	}
	poll(t, "jig session for-terminal finds the session by its pane", func() string {
		if s := find(); s == nil || s.Agent != status.AgentClaude {
			return "not found; screen:\n" + screen()
		}
		return ""
	})

	// A prompt typed into the pane: one command, then an answer.
	cmd, _ := json.Marshal(map[string]string{"command": "true", "description": "nothing"})
	w.model.Queue(
		scriptedanthropic.Reply{Text: "Running.", ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_i1", Name: "Bash", Input: string(cmd)}},
			Usage: scriptedanthropic.Usage{Input: 60000, Output: 20, CacheRead: 4000}},
		scriptedanthropic.Reply{Text: "All done.", Usage: scriptedanthropic.Usage{Input: 90000, Output: 10, CacheRead: 10000}},
	)
	inner.Run("send-keys", "-t", pane, "-l", "run the command")
	inner.Run("send-keys", "-t", pane, "Enter")
	// idle after the turn, context from the last reply (100000 of the
	// window the statusLine said), cost what Claude's statusLine says
	poll(t, "the turn ends and the file has Claude's context and cost", func() string {
		s := find()
		var in struct {
			Cost struct {
				Total float64 `json:"total_cost_usd"`
			} `json:"cost"`
			ContextWindow struct {
				Size int64 `json:"context_window_size"`
			} `json:"context_window"`
		}
		data, _ := os.ReadFile(sl)
		json.Unmarshal(data, &in)
		switch {
		case s == nil:
			return "no session"
		case s.State != status.Idle || s.Usage.Output != 30 || s.Context.Tokens == nil || *s.Context.Tokens != 100000:
			return fmt.Sprintf("state %s, usage %+v, context %+v; screen:\n%s", s.State, s.Usage, s.Context, screen())
		case s.Context.Window == nil || *s.Context.Window != in.ContextWindow.Size:
			return fmt.Sprintf("window %v, statusLine said %d", s.Context.Window, in.ContextWindow.Size)
		case s.Usage.Cost == nil || in.Cost.Total == 0 || math.Abs(*s.Usage.Cost-in.Cost.Total) > 1e-9:
			return fmt.Sprintf("cost %v, Claude's statusLine says %v", s.Usage.Cost, in.Cost.Total)
		}
		return ""
	})
	s := find()
	window := *s.Context.Window
	percent := fmt.Sprintf(" %.0f%% ", *s.Context.Percent)
	shows := func(line string) bool { return strings.Contains(line, model) && strings.Contains(line, percent) }

	// tmux's status line, read as a user sees it: a client of the inner
	// server runs in a pane of an outer one, whose screen holds it.
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t cc")
	outer.Run("set", "-g", "status", "off")
	poll(t, "tmux's status line shows the model and context percentage", func() string {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		if last := rows[len(rows)-1]; !shows(last) {
			return fmt.Sprintf("status line %q, want %s and%s", last, model, percent)
		}
		return ""
	})
	// Claude's own footer shows jig's statusLine.
	poll(t, "Claude shows jig's statusLine", func() string {
		if sc := screen(); !shows(sc) {
			return "screen:\n" + sc
		}
		return ""
	})

	if s.Model == nil || s.Model.Name != modelName {
		t.Errorf("model %+v, want Claude's display name %s", s.Model, modelName)
	}

	// /compact: the context is unknown (null) until the next reply, while
	// the statusLine goes on running, whatever it says of the context.
	costBefore := *s.Usage.Cost
	w.model.Queue(scriptedanthropic.Reply{Text: "<summary>E2E-SUMMARY</summary>", Usage: scriptedanthropic.Usage{Input: 3000, Output: 200}})
	inner.Run("send-keys", "-t", pane, "-l", "/compact")
	inner.Run("send-keys", "-t", pane, "Enter")
	poll(t, "after /compact the context is unknown while the statusLine runs", func() string {
		s := find()
		var in struct {
			Cost struct {
				Total float64 `json:"total_cost_usd"`
			} `json:"cost"`
		}
		data, _ := os.ReadFile(sl)
		json.Unmarshal(data, &in)
		switch {
		case s == nil || in.Cost.Total <= costBefore:
			return "no statusLine run since the compaction (its cost is in Claude's); screen:\n" + screen()
		case s.Context.Tokens != nil || s.Context.Percent != nil || s.Context.Window == nil:
			return fmt.Sprintf("context %+v, want tokens and percent unknown, the window known; the statusLine said %s", s.Context, data)
		}
		return ""
	})

	inner.Run("send-keys", "-t", pane, "-l", "/exit")
	inner.Run("send-keys", "-t", pane, "Enter")
	poll(t, "SessionEnd removes the file", func() string {
		if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) > 0 {
			return fmt.Sprintf("still there: %v; screen:\n%s", files, screen())
		}
		return ""
	})

	// The same session in print mode (no statusLine): the window Claude
	// said is kept, so the percentage is known; at the end the tokens are
	// Claude's own totals, the compaction's request included.
	run := w.startPrint("E2E-PROMPT once more", "--continue", "--allowedTools", "Bash")
	w.waitRequests(4)
	w.model.Queue(scriptedanthropic.Reply{ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_i2", Name: "Bash", Input: string(cmd)}},
		Usage: scriptedanthropic.Usage{Input: 50000, Output: 5}})
	w.waitRequests(5)
	s = w.checkStep("print mode after the interactive run")
	if s.Context.Window == nil || *s.Context.Window != window || s.Context.Percent == nil || *s.Context.Percent != float64(50000*100)/float64(window) {
		t.Errorf("print mode: context %+v, want 50000 tokens of the window %d the statusLine said", s.Context, window)
	}
	w.model.Queue(scriptedanthropic.Reply{Text: "Done.", Usage: scriptedanthropic.Usage{Input: 50010, Output: 5}})
	w.checkEnd("print mode after the interactive run", run.result(t))
}
