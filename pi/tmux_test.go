package pi_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/status"
)

// TestPiInTmux runs Pi as a user does: interactive, in a real tmux pane.
// The status file names the pane tmux gave Pi, a prompt typed into the pane
// shows up in the file, /context draws in Pi's own screen, and /quit
// removes the file.
func TestPiInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "tmux is missing; run .ci/provision")
	}
	for _, v := range piVersions {
		t.Run("pi-"+v, func(t *testing.T) {
			t.Parallel()
			testTmux(t, v)
		})
	}
}

func testTmux(t *testing.T, version string) {
	w := newWorld(t, version)
	sock := fmt.Sprintf("jig-e2e-%d-%s", os.Getpid(), strings.ReplaceAll(version, ".", ""))
	tmux := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("tmux", append([]string{"-L", sock}, args...)...)
		cmd.Env = append(w.env(), "TMUX=", "TMUX_PANE=", "LANG=C.UTF-8", "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	pi := strings.Join([]string{w.piBin, "--provider", "scripted", "--model", "mock-model", "--offline",
		"--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files"}, " ")
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "160", "-y", "48", "-c", w.work, pi)
	t.Cleanup(func() { exec.Command("tmux", "-L", sock, "kill-server").Run() })
	pane := tmux("display-message", "-p", "-t", "e2e", "#{pane_id}")

	var id string
	deadline := time.Now().Add(waitLimit)
	for id == "" {
		files, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*.json"))
		if len(files) == 1 {
			id = strings.TrimSuffix(filepath.Base(files[0]), ".json")
		}
		if time.Now().After(deadline) {
			t.Fatalf("pi %s in tmux wrote no status file; its screen:\n%s", version, tmux("capture-pane", "-p", "-t", "e2e"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, s := w.waitStatus(id, "the tmux pane", func(s *status.Status) bool { return s.Terminal != nil })
	if *s.Terminal != pane || *s.TerminalFrom != "TMUX_PANE" {
		t.Errorf("terminal %s from %s, want tmux's pane %s from TMUX_PANE", *s.Terminal, *s.TerminalFrom, pane)
	}

	w.model.Queue(text("hello from the scripted model"))
	tmux("send-keys", "-t", "e2e", "-l", "say hello")
	tmux("send-keys", "-t", "e2e", "Enter")
	w.waitStatus(id, "the typed prompt's reply", func(s *status.Status) bool {
		return s.State == status.Idle && s.Usage.Output > 0
	})
	w.waitUsage(id)

	tmux("send-keys", "-t", "e2e", "-l", "/context")
	tmux("send-keys", "-t", "e2e", "Enter")
	var screen string
	for deadline := time.Now().Add(waitLimit); ; {
		screen = tmux("capture-pane", "-p", "-t", "e2e")
		if strings.Contains(screen, "toolResults") && strings.Contains(screen, "/ 64k tokens") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/context never drew in Pi's screen:\n%s", screen)
		}
		time.Sleep(50 * time.Millisecond)
	}

	tmux("send-keys", "-t", "e2e", "-l", "/quit")
	tmux("send-keys", "-t", "e2e", "Enter")
	w.waitGone(w.statusPath(id), "the status file after /quit")
}
