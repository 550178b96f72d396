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

// inTmux is Claude Code running as a user runs it, in a pane of a private
// tmux whose status line shows jig's tmux preset for the pane.
type inTmux struct {
	w            *world
	inner, outer *testsrc.Tmux
	pane         string
	statusLine   string // what Claude last piped to its statusLine command
}

// startInTmux starts Claude in tmux, its first-run questions answered
// beforehand, its statusLine jig's (recording what Claude pipes in), the
// tools in allow allowed without asking; it returns once jig finds the
// session by its pane.
func startInTmux(t *testing.T, w *world, allow []string) *inTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	seedFirstRun(t, w)
	// The statusLine command records what Claude pipes in beside printing.
	c := &inTmux{w: w, statusLine: filepath.Join(w.marks, "statusline.json")}
	settings := filepath.Join(w.home, ".claude", "settings.json")
	var cfg map[string]any
	data, _ := os.ReadFile(settings)
	json.Unmarshal(data, &cfg)
	line := cfg["statusLine"].(map[string]any)
	line["command"] = "tee " + c.statusLine + " | " + line["command"].(string) + " --preset plain"
	cfg["permissions"] = map[string]any{"defaultMode": "default", "allow": allow}
	data, _ = json.MarshalIndent(cfg, "", "  ")
	os.WriteFile(settings, data, 0o600)

	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.marks)
	c.inner, c.outer = testsrc.NewTmux(t, "claude-inner", env), testsrc.NewTmux(t, "claude-outer", env)
	conf := filepath.Join(w.marks, "tmux.conf")
	os.WriteFile(conf, []byte("set -g status-interval 1\nset -g status-right-length 80\nset -g remain-on-exit on\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n"), 0o600)
	c.pane = c.inner.Run("-f", conf, "new-session", "-d", "-s", "cc", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}",
		"env JIG_STATE_DIR="+w.state+" "+w.claude)

	// The statusLine runs as soon as Claude's prompt shows: the session is
	// found by its pane.
	poll(t, "Claude's statusLine runs jig claude statusline", func() string {
		if _, err := os.Stat(c.statusLine); err != nil {
			s := c.screen()
			if strings.Contains(s, "Make auto mode your default permission mode?") {
				// A first-run question Claude sometimes asks (seen when the
				// machine is busy): answered as a user would, "No".
				c.keys("Down", "Enter")
			}
			return "no statusLine run yet; screen:\n" + s
		}
		return ""
	})
	poll(t, "jig session for-terminal finds the session by its pane", func() string {
		if s := c.find(); s == nil || s.Agent != status.AgentClaude {
			return "not found; screen:\n" + c.screen()
		}
		return ""
	})
	return c
}

// seedFirstRun answers what a first start asks (theme, trust, the API
// key) beforehand, as after a user's first run.
func seedFirstRun(t *testing.T, w *world) {
	t.Helper()
	key := "sk-ant-scripted-0123456789abcdefghij"
	seed, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 1,
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{w.work: map[string]any{"hasTrustDialogAccepted": true}},
	})
	if err := os.WriteFile(filepath.Join(w.home, ".claude.json"), seed, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (c *inTmux) screen() string { return c.inner.Run("capture-pane", "-p", "-t", c.pane) }

func (c *inTmux) keys(keys ...string) {
	c.inner.Run(append([]string{"send-keys", "-t", c.pane}, keys...)...)
}

// typeLine types a line into Claude's prompt and sends it.
func (c *inTmux) typeLine(text string) {
	c.keys("-l", text)
	c.keys("Enter")
}

// find is the session jig finds in the pane, nil when none.
func (c *inTmux) find() *status.Status {
	cmd := exec.Command(c.w.jig, "session", "for-terminal", c.pane, "--json")
	cmd.Env = c.w.env("TMUX=", "TMUX_PANE=") // a script outside tmux: the pane id alone (w.env names a made-up server)
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	s, _ := status.Decode(out)
	return s
}

// bar is tmux's status line as a user sees it: a client of the inner
// server runs in a pane of the outer one, whose screen holds it.
func (c *inTmux) bar() func() string {
	outerPane := c.outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+c.inner.Socket+" attach -t cc")
	c.outer.Run("set", "-g", "status", "off")
	return func() string {
		rows := strings.Split(c.outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		return rows[len(rows)-1]
	}
}

// TestInteractiveInTmux runs Claude Code as a user does, in a real tmux
// pane: its statusLine runs jig's command, `jig session for-terminal
// $TMUX_PANE` finds the session, tmux's status line shows its model and
// context percentage, and the cost in the file is Claude's own after each
// step.
func TestInteractiveInTmux(t *testing.T) {
	w := newWorld(t)
	c := startInTmux(t, w, []string{"Bash"})
	sl, find, screen := c.statusLine, c.find, c.screen

	// A prompt typed into the pane: one command, then an answer.
	cmd, _ := json.Marshal(map[string]string{"command": "true", "description": "nothing"})
	w.model.Queue(
		scriptedanthropic.Reply{Text: "Running.", ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_i1", Name: "Bash", Input: string(cmd)}},
			Usage: scriptedanthropic.Usage{Input: 60000, Output: 20, CacheRead: 4000}},
		scriptedanthropic.Reply{Text: "All done.", Usage: scriptedanthropic.Usage{Input: 90000, Output: 10, CacheRead: 10000}},
	)
	c.typeLine("run the command")
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

	bar := c.bar()
	poll(t, "tmux's status line shows the model and context percentage", func() string {
		if last := bar(); !shows(last) {
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

	// /compact: the context is what Claude recorded the compaction left
	// (its postTokens, read here from the transcript apart from jig's
	// reader), while the statusLine goes on running.
	costBefore := *s.Usage.Cost
	w.model.Queue(scriptedanthropic.Reply{Text: "<summary>E2E-SUMMARY</summary>", Usage: scriptedanthropic.Usage{Input: 3000, Output: 200}})
	c.typeLine("/compact")
	poll(t, "after /compact the context is Claude's postTokens", func() string {
		s := find()
		var in struct {
			Cost struct {
				Total float64 `json:"total_cost_usd"`
			} `json:"cost"`
		}
		data, _ := os.ReadFile(sl)
		json.Unmarshal(data, &in)
		if s == nil || in.Cost.Total <= costBefore || s.SessionFile == nil {
			return "no statusLine run since the compaction (its cost is in Claude's); screen:\n" + screen()
		}
		post, ok := postTokens(*s.SessionFile)
		switch {
		case !ok:
			return "Claude recorded no compaction yet"
		case s.Context.Tokens == nil || *s.Context.Tokens != post || s.Context.Window == nil || s.Context.Percent == nil ||
			*s.Context.Percent != float64(post)/float64(*s.Context.Window)*100:
			return fmt.Sprintf("context %v of %v (%v%%), want Claude's postTokens %d; the statusLine said %s",
				deref(s.Context.Tokens), deref(s.Context.Window), deref(s.Context.Percent), post, data)
		}
		return ""
	})

	c.typeLine("/exit")
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

// TestPermissionPromptInTmux: Claude must ask before a Bash call (Bash is
// not allowed). Its PermissionRequest hook alone sets attention permission
// for Bash, the tmux status line shows the attention glyph, and answering
// the prompt clears it.
func TestPermissionPromptInTmux(t *testing.T) {
	w := newWorld(t)
	c := startInTmux(t, w, []string{})
	bar := c.bar()
	// a command that writes: Claude asks (it lets read-only ones such as
	// true run without asking)
	cmd, _ := json.Marshal(map[string]string{"command": "touch made-by-claude.txt", "description": "make a file"})
	w.model.Queue(
		scriptedanthropic.Reply{Text: "Running.", ToolUses: []scriptedanthropic.ToolUse{{ID: "toolu_p1", Name: "Bash", Input: string(cmd)}},
			Usage: scriptedanthropic.Usage{Input: 600, Output: 20}},
		scriptedanthropic.Reply{Text: "All done.", Usage: scriptedanthropic.Usage{Input: 900, Output: 10}},
	)
	c.typeLine("run the command")
	poll(t, "Claude asks, and the file says what waits", func() string {
		s := c.find()
		if s == nil || s.Attention == nil {
			return "no attention yet; screen:\n" + c.screen()
		}
		if a := s.Attention; a.Kind != status.AttentionPermission || a.Tool != "Bash" || s.State != status.Busy {
			return fmt.Sprintf("attention %+v, state %s; want permission for Bash, busy", a, s.State)
		}
		return ""
	})
	poll(t, "Claude's screen shows the prompt", func() string {
		if sc := c.screen(); !strings.Contains(sc, "Do you want to proceed?") {
			return "screen:\n" + sc
		}
		return ""
	})
	if a := c.find().Attention; a == nil || a.Tool != "Bash" {
		t.Fatalf("while Claude asks: attention %+v, want permission for Bash", a)
	}
	poll(t, "tmux's status line shows the attention glyph", func() string {
		if last := bar(); !strings.Contains(last, "◐ Bash") {
			return fmt.Sprintf("status line %q, want ◐ Bash", last)
		}
		return ""
	})
	c.keys("Enter") // "1. Yes"
	poll(t, "the answer clears it", func() string {
		s := c.find()
		if s == nil || s.Attention != nil || s.State != status.Idle {
			return "still waiting or busy; screen:\n" + c.screen()
		}
		return ""
	})
	poll(t, "the glyph goes from tmux's status line", func() string {
		if last := bar(); strings.Contains(last, "◐") || !strings.Contains(last, "○") {
			return fmt.Sprintf("status line %q, want ○ and no ◐", last)
		}
		return ""
	})
	if s := c.find(); len(s.Recent) == 0 || s.Recent[0].Tool != "Bash" || s.Recent[0].Outcome != status.OK {
		t.Errorf("recent %+v, want the Bash call done", s.Recent)
	}
	// Claude exits before the test's folders go: killed with its tmux
	// server, it would still be writing in them.
	c.typeLine("/exit")
	poll(t, "SessionEnd removes the file", func() string {
		if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) > 0 {
			return fmt.Sprintf("still there: %v; screen:\n%s", files, c.screen())
		}
		return ""
	})
}
