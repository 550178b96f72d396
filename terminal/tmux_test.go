package terminal

import (
	"os"
	"os/exec"
	"testing"

	"jig/internal/testsrc"
)

func TestFollowPane(t *testing.T) {
	pane := func(id string, active, last bool) tmuxPane { return tmuxPane{id, active, last} }
	for _, c := range []struct {
		what  string
		panes []tmuxPane
		want  string
	}{
		{"the user works in %1", []tmuxPane{pane("%0", false, true), pane("%1", true, false), pane("%2", false, false)}, "%1"},
		{"the panel %2 has the focus: the pane the user came from", []tmuxPane{pane("%0", false, false), pane("%1", false, true), pane("%2", true, false)}, "%1"},
		{"the panel has the focus, its last pane is gone", []tmuxPane{pane("%0", false, false), pane("%2", true, false)}, ""},
		{"the panel is alone in its window", []tmuxPane{pane("%2", true, false)}, ""},
		{"the panel is the last pane, another is active", []tmuxPane{pane("%0", true, false), pane("%2", false, true)}, "%0"},
	} {
		if got := followPane(c.panes, "%2"); got != c.want {
			t.Errorf("%s: followed %q, want %q", c.what, got, c.want)
		}
	}
}

// A real tmux: the panel's pane follows the focus of its window as the
// user moves it, and keeps the pane the user came from while it has the
// focus itself.
func TestTmuxFollowRealTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed: run .ci/provision")
		}
		t.Skip("SKIPPED: tmux is not installed, so following its focus is NOT tested")
	}
	s := testsrc.NewTmux(t, "follow", []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"})
	agentA := s.Run("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "20", "-P", "-F", "#{pane_id}", "sleep 600")
	panel := s.Run("split-window", "-h", "-t", agentA, "-P", "-F", "#{pane_id}", "sleep 600") // split-window focuses it
	agentB := s.Run("split-window", "-d", "-v", "-t", agentA, "-P", "-F", "#{pane_id}", "sleep 600")
	other := s.Run("new-window", "-d", "-P", "-F", "#{pane_id}", "sleep 600")
	// jig runs tmux as a panel in a pane would: through the server $TMUX names.
	t.Setenv("TMUX", s.Run("display", "-p", "#{socket_path}")+",1,0")

	follows := func(when, want string) {
		t.Helper()
		got, err := TmuxFollow(panel)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if got != want {
			t.Errorf("%s: the panel follows %q, want %q", when, got, want)
		}
	}
	follows("just split from A, the panel has the focus", agentA)
	s.Run("select-pane", "-t", agentB)
	follows("the user works in B", agentB)
	s.Run("select-pane", "-t", agentA)
	s.Run("select-pane", "-t", panel)
	follows("the user went from A to the panel", agentA)
	s.Run("select-window", "-t", other)
	follows("another window is shown: the panel's window keeps its focus", agentA)
	s.Run("select-window", "-t", panel)
	s.Run("select-pane", "-t", agentB)
	s.Run("kill-pane", "-t", agentA)
	follows("A is gone, B has the focus", agentB)

	s.Run("kill-pane", "-t", agentB)
	follows("the panel is alone in its window", "")
	if _, err := TmuxFollow("%999"); err == nil {
		t.Error("a pane that is not there: no error")
	} else {
		t.Logf("a pane that is not there: %v", err)
	}
}
