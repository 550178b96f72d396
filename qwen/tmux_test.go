package qwen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"jig/internal/pitest"
	"jig/internal/scriptedmodel"
	"jig/internal/testsrc"
	"jig/status"
)

// TestApprovalInTmux runs Qwen Code as a user does, in a real tmux pane
// whose status line shows jig's tmux preset: a shell call Qwen must ask
// about sets attention permission for run_shell_command from its hooks,
// tmux's status line shows ◐, and answering the prompt clears it. Killed
// hard (kill -9), Qwen leaves its file, and `jig session gc` removes it.
func TestApprovalInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t)
	marks := t.TempDir()
	env := append(w.env("TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+marks)
	inner, outer := testsrc.NewTmux(t, "qwen-inner", env), testsrc.NewTmux(t, "qwen-outer", env)
	conf := filepath.Join(marks, "tmux.conf")
	os.WriteFile(conf, []byte("set -g status-interval 1\nset -g status-right-length 80\nset -g remain-on-exit on\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n"), 0o600)
	pane := inner.Run("-f", conf, "new-session", "-d", "-s", "qw", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}",
		"env JIG_STATE_DIR="+w.state+" "+w.qwen+" --approval-mode default")
	screen := func() string { return inner.Run("capture-pane", "-p", "-t", pane) }
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t qw")
	outer.Run("set", "-g", "status", "off")
	bar := func() string { // tmux's status line as a user sees it
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		return rows[len(rows)-1]
	}
	poll(t, "Qwen's prompt shows, its session found by the pane", func() string {
		if s := w.status(); s == nil || s.Terminal == nil || *s.Terminal != pane || !strings.Contains(screen(), "Type your message") {
			return fmt.Sprintf("%s; screen:\n%s", describe(s), screen())
		}
		return ""
	})

	made := filepath.Join(w.work, "made-by-qwen")
	w.model.Queue(
		scriptedmodel.Reply{ToolCalls: []scriptedmodel.ToolCall{call("call_p1", "run_shell_command", map[string]string{"command": "touch " + made, "description": "make a file"})},
			Usage: scriptedmodel.Usage{Prompt: 600, Completion: 20}},
		scriptedmodel.Reply{Text: "All done.", Usage: scriptedmodel.Usage{Prompt: 900, Completion: 10}},
	)
	inner.Run("send-keys", "-t", pane, "-l", "make the file")
	inner.Run("send-keys", "-t", pane, "Enter")
	poll(t, "Qwen asks, and the file says what waits", func() string {
		s := w.status()
		if s == nil || s.Attention == nil || s.Attention.Kind != status.AttentionPermission || s.Attention.Tool != "run_shell_command" || s.State != status.Busy {
			return fmt.Sprintf("%s; screen:\n%s", describe(s), screen())
		}
		return ""
	})
	poll(t, "tmux's status line shows the attention glyph", func() string {
		if last := bar(); !strings.Contains(last, "◐ run_shell_command") {
			return fmt.Sprintf("status line %q, want ◐ run_shell_command; screen:\n%s", last, screen())
		}
		return ""
	})
	if _, err := os.Stat(made); err == nil {
		t.Fatal("the call ran before it was approved")
	}
	inner.Run("send-keys", "-t", pane, "Enter") // the first choice: allow once
	poll(t, "the answer clears it, the call runs, the turn ends", func() string {
		s := w.status()
		_, err := os.Stat(made)
		if s == nil || s.Attention != nil || s.State != status.Idle || err != nil {
			return fmt.Sprintf("%s, file %v; screen:\n%s", describe(s), err, screen())
		}
		return ""
	})
	poll(t, "the glyph goes from tmux's status line", func() string {
		if last := bar(); strings.Contains(last, "◐") || !strings.Contains(last, "○") {
			return fmt.Sprintf("status line %q, want ○ and no ◐", last)
		}
		return ""
	})

	// kill -9: no SessionEnd, the file stays (readers see its pid gone),
	// and gc removes it.
	s := w.status()
	if err := syscall.Kill(s.PID, syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9 %d: %v", s.PID, err)
	}
	poll(t, "Qwen is gone", func() string {
		if _, err := os.Stat("/proc/" + strconv.Itoa(s.PID)); err == nil {
			return "still running"
		}
		return ""
	})
	if w.status() == nil {
		t.Fatal("the file went without a SessionEnd")
	}
	w.run("session", "gc")
	if s := w.status(); s != nil {
		t.Errorf("gc left the file of a Qwen killed hard: %s", describe(s))
	}
}
