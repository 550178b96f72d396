package terminal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/hammer"
	"jig/internal/testsrc"
)

func TestMain(m *testing.M) { testsrc.Main(m) }

// TestAttackTwoTmuxServers: two real tmux servers (tmux -L a, tmux -L b),
// each with an agent's session in its pane %0 — pane ids are numbered per
// server. Each server's status line runs `jig session for-terminal
// "#{pane_id}"` as jig's tmux lines do, and shows its own session. Before,
// the status file named the pane but not its server, and both status lines
// showed the session written last. The status lines are read as a user sees
// them: a client of each server runs in a pane of a third tmux, whose
// capture-pane returns its screen.
func TestAttackTwoTmuxServers(t *testing.T) {
	start := time.Now()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is missing: run .ci/provision")
		}
		t.Skip("tmux is missing (.ci/provision installs it)")
	}
	jig := testsrc.Jig(t)
	tmp := t.TempDir()
	state := filepath.Join(tmp, "state")
	env := []string{"PATH=" + filepath.Dir(jig) + ":/usr/bin:/bin", "HOME=" + tmp, "JIG_STATE_DIR=" + state,
		"TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	servers := map[string]*testsrc.Tmux{"a": testsrc.NewTmux(t, "a", env), "b": testsrc.NewTmux(t, "b", env)}
	outer := testsrc.NewTmux(t, "outer", env)
	panes := map[string]string{}
	for _, name := range []string{"a", "b"} {
		s := servers[name]
		// The pane's shell writes its session's status, then stays as the
		// process the file names. b writes last, so b's is the newest.
		pane := s.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "5", "-P", "-F", "#{pane_id}",
			fmt.Sprintf(`echo '{"state":"busy"}' | jig session write --session sess-%s --pid $$ && exec sleep 600`, name))
		if pane != "%0" {
			t.Fatalf("server %s's first pane is %s, want %%0", name, pane)
		}
		waitFor(t, "sess-"+name+" is written", func() string {
			if _, err := os.Stat(filepath.Join(state, "sessions", "sess-"+name+".json")); err != nil {
				return err.Error()
			}
			return ""
		})
		time.Sleep(10 * time.Millisecond) // distinct updatedAt
	}
	// Only now, with both sessions written, do the status lines first run.
	for _, name := range []string{"a", "b"} {
		s := servers[name]
		s.Run("set", "-g", "status-interval", "1")
		s.Run("set", "-g", "status-right", `[#(jig session for-terminal "#{pane_id}" --format '{{.session}}')]`)
		panes[name] = outer.Run("-f", "/dev/null", "new-session", "-d", "-s", "client-"+name, "-x", "80", "-y", "5",
			"-P", "-F", "#{pane_id}", "env -u TMUX tmux -L "+s.Socket+" attach -t main")
	}
	outer.Run("set", "-g", "status", "off")
	wrong := int64(0)
	for _, name := range []string{"a", "b"} {
		if !waitFor(t, "server "+name+"'s status line shows its own session", func() string {
			rows := strings.Split(outer.Run("capture-pane", "-p", "-t", panes[name]), "\n")
			if line := rows[len(rows)-1]; !strings.Contains(line, "[sess-"+name+"]") {
				return fmt.Sprintf("status line %q", line)
			}
			return ""
		}) {
			wrong++
		}
	}
	hammer.Figure(t, hammer.Row{Attack: "two tmux servers, one pane id", Load: "a session in %0 of each of 2 real tmux servers, read by each status line",
		Kept: fmt.Sprintf("%d of 2 status lines show their own server's session", 2-wrong), Lost: wrong, Exit: "0"}, start)
}

// waitFor calls check until it returns "" or 20 s pass, then fails with its
// last word (the status line refreshes each second; the machine may be
// loaded).
func waitFor(t *testing.T, what string, check func() string) bool {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		msg := check()
		if msg == "" {
			return true
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: gave up after 20s: %s", what, msg)
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}
