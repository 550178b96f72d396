package claude_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jig/internal/pitest"
	"jig/internal/scriptedanthropic"
	"jig/internal/testsrc"
	"jig/status"
)

// TestRequestReachesIdleClaudeWithTheirLine: the user keeps their own
// statusLine (jig install claude wraps it: --then). Idle, the real Claude
// runs hooks no more, so a request is taken when it runs the statusLine
// again: the wrapped line refreshes as jig's own does, and `jig request
// --wait` is answered.
func TestRequestReachesIdleClaudeWithTheirLine(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t)
	seedFirstRun(t, w)
	settings := filepath.Join(w.home, ".claude", "settings.json")
	runs := filepath.Join(w.marks, "runs")
	count := func() int { data, _ := os.ReadFile(runs); return strings.Count(string(data), "\n") }
	var cfg map[string]any
	data, _ := os.ReadFile(settings)
	json.Unmarshal(data, &cfg)
	cfg["statusLine"] = map[string]any{"type": "command", "command": "cat >/dev/null; echo run >> '" + runs + "'; echo MY-OWN-LINE"}
	data, _ = json.MarshalIndent(cfg, "", "  ")
	os.WriteFile(settings, data, 0o600)
	install := exec.Command(w.jig, "install", "claude")
	install.Env = w.env()
	if out, err := install.CombinedOutput(); err != nil || !strings.Contains(string(out), "--then") {
		t.Fatalf("jig install claude: %v\n%s", err, out)
	}

	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.marks)
	tm := testsrc.NewTmux(t, "claude-then", env)
	pane := tm.Run("-f", "/dev/null", "new-session", "-d", "-s", "cc", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}",
		"env JIG_STATE_DIR="+w.state+" "+w.claude)
	screen := func() string { return tm.Run("capture-pane", "-p", "-t", pane) }
	c := &inTmux{w: w, inner: tm, pane: pane}
	poll(t, "Claude shows the user's own line, and jig finds the session", func() string {
		sc := screen()
		if strings.Contains(sc, "Make auto mode your default permission mode?") {
			c.keys("Down", "Enter")
		}
		if s := c.find(); !strings.Contains(sc, "MY-OWN-LINE") || s == nil || s.Agent != status.AgentClaude {
			return "screen:\n" + sc
		}
		return ""
	})
	// one turn, so that Claude has said which tools it offers; then idle
	w.model.Queue(scriptedanthropic.Reply{Text: "Hello.", Usage: scriptedanthropic.Usage{Input: 500, Output: 5}})
	c.typeLine("hi")
	poll(t, "Claude replies and is idle", func() string {
		if s := c.find(); s == nil || s.State != status.Idle || s.Tools.Active == 0 || !strings.Contains(screen(), "Hello.") {
			return "screen:\n" + screen()
		}
		return ""
	})
	// idle, Claude runs no hook: it runs the statusLine again only as
	// its refreshInterval says (after the turn's own last run)
	n := count()
	poll(t, "Claude runs the wrapped statusLine again while idle", func() string {
		if count() < n+2 {
			return fmt.Sprintf("%d runs since the turn ended", count()-n)
		}
		return ""
	})
	req := exec.Command(w.jig, "request", "tool", "Bash", "off", "--terminal", pane, "--wait")
	req.Env = w.env("TMUX=", "TMUX_PANE=")
	out, err := req.Output()
	if err != nil {
		t.Fatalf("jig request --wait to the idle Claude: %v\n%s", err, out)
	}
	if s := c.find(); s == nil || s.LastRequest == nil || !s.LastRequest.OK || s.Switches.Tools["Bash"] {
		t.Errorf("after the request: %+v", s)
	}
	c.typeLine("/exit")
	poll(t, "SessionEnd removes the file", func() string {
		if files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json")); len(files) > 0 {
			return fmt.Sprintf("still there: %v; screen:\n%s", files, screen())
		}
		return ""
	})
}
