//go:build linux

package opencode_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedmodel"
	"jig/internal/testsrc"
	"jig/status"
)

// TestTUIInTmux runs OpenCode's TUI as a user does, in a real tmux pane
// whose status line runs jig's tmux preset: after a prompt typed into the
// pane, the status line shows OpenCode's model and context, the file names
// the pane, and `jig board` lists the session.
func TestTUIInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	w := newWorld(t, nil)
	env := w.env("TERM=xterm-256color", "LANG=C.UTF-8", "TMUX=", "TMUX_PANE=", "TMUX_TMPDIR="+w.root)
	inner, outer := testsrc.NewTmux(t, "opencode-inner", env), testsrc.NewTmux(t, "opencode-outer", env)
	conf := filepath.Join(w.root, "tmux.conf")
	w.writeFile(conf, "set -g status-interval 1\nset -g status-right-length 80\n"+
		"set -g status-right '#("+w.jig+" session for-terminal \"#{pane_id}\" --preset tmux)'\n")
	pane := inner.Run("-f", conf, "new-session", "-d", "-s", "oc", "-x", "150", "-y", "40", "-c", w.work, "-P", "-F", "#{pane_id}", w.bin)
	screen := func() string { return inner.Run("capture-pane", "-p", "-t", pane) }
	// The TUI takes a while to draw on a loaded machine; keys typed before
	// its prompt shows are lost.
	for deadline := time.Now().Add(2 * waitLimit); !strings.Contains(screen(), "Ask anything"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("OpenCode's prompt never showed:\n%s", screen())
		}
	}
	// Half the window: 64000 of 128000 tokens.
	w.model.Queue(scriptedmodel.Reply{Text: "hello from the scripted model", Usage: scriptedmodel.Usage{Prompt: 63990, Completion: 10}})
	inner.Run("send-keys", "-t", pane, "-l", "say hello")
	inner.Run("send-keys", "-t", pane, "Enter")
	s := w.wait("the typed prompt's reply", func(s *status.Status) bool {
		return s.State == status.Idle && s.Context.Tokens != nil && *s.Context.Tokens == 64000
	})
	// OpenCode's own sidebar says the same context.
	for deadline := time.Now().Add(waitLimit); !strings.Contains(screen(), "50% used"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the sidebar never said 50%% used, as the file does (%v of %v):\n%s", *s.Context.Tokens, *s.Context.Window, screen())
		}
	}
	if s.Terminal == nil || *s.Terminal != pane || *s.TerminalFrom != "TMUX_PANE" {
		t.Errorf("terminal %v, want tmux's pane %s", s.Terminal, pane)
	}
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t oc")
	outer.Run("set", "-g", "status", "off")
	var bar string
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(200 * time.Millisecond) {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		if bar = rows[len(rows)-1]; strings.Contains(bar, "mock-model") && strings.Contains(bar, "50%") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status line never showed the model and context: %q", bar)
		}
	}
	out, err := w.cmd(w.jig, "board", "--once").Output()
	if err != nil || !bytes.Contains(out, []byte("opencode")) || !bytes.Contains(out, []byte("Mock Model")) {
		t.Errorf("jig board: %v:\n%s", err, out)
	}
}
