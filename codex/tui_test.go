package codex_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedopenai"
	"jig/internal/testsrc"
	"jig/status"
)

// The interactive TUI is how people run Codex. Since 0.157 a TUI is a
// client of a background server (`codex app-server --managed-daemon`,
// one per CODEX_HOME, started by the first TUI with that TUI's
// environment), which runs the hooks and writes the rollouts; a second
// TUI attaches to it. These tests drive the real TUI in real tmux panes.

// tuis is a private tmux server for Codex TUIs, and the background
// servers they start (setsid: outside the test's process group), killed
// by pid when the test ends.
type tuis struct {
	w      *world
	tm     *testsrc.Tmux
	opened bool
}

func (w *world) tuis() *tuis {
	w.t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(w.t, "tmux is missing; run .ci/provision")
	}
	env := append(w.env("TMUX=", "TMUX_PANE=", "TERM=xterm-256color", "LANG=C.UTF-8"), "TMUX_TMPDIR="+w.marks)
	x := &tuis{w: w, tm: testsrc.NewTmux(w.t, "codex-tui", env)}
	w.t.Cleanup(x.killServers)
	return x
}

// killServers kills the background servers of the test's CODEX_HOME.
func (x *tuis) killServers() {
	for _, pid := range codexServers(x.w.codexHome) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// codexServers are the pids of the `codex app-server` processes started
// from home's packages folder.
func codexServers(home string) []int {
	var pids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if strings.HasPrefix(string(cmdline), filepath.Join(home, "packages")) && strings.Contains(string(cmdline), "app-server") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// open starts a TUI in a new pane (the first makes the session), in dir,
// and waits until it takes a prompt, answering the model migration
// question with "Use existing model" when Codex asks it. It returns the
// pane.
func (x *tuis) open(dir string) string {
	x.w.t.Helper()
	line := "'" + x.w.codex + "' -s danger-full-access; echo CODEX-EXIT=$?; sleep 600"
	var pane string
	if x.opened {
		pane = x.tm.Run("split-window", "-d", "-t", "cx", "-c", dir, "-P", "-F", "#{pane_id}", line)
	} else {
		pane = x.tm.Run("-f", "/dev/null", "new-session", "-d", "-s", "cx", "-x", "150", "-y", "50", "-c", dir, "-P", "-F", "#{pane_id}", line)
		x.opened = true
	}
	x.ready(pane)
	return pane
}

func (x *tuis) screen(pane string) string { return x.tm.Run("capture-pane", "-p", "-t", pane) }

// ready waits until the pane's TUI takes a prompt; it says "Use existing
// model" to the migration question (Codex records the answer in
// config.toml).
func (x *tuis) ready(pane string) {
	x.w.t.Helper()
	var answered time.Time
	settled := 0
	poll(x.w.t, "the TUI takes a prompt", func() string {
		s := x.screen(pane)
		switch {
		case strings.Contains(s, "Use existing model"):
			// again while the question stays: on a loaded machine keys
			// sent as it is drawn can be lost ("2" twice still means 2)
			if time.Since(answered) > 2*time.Second {
				x.tm.Run("send-keys", "-t", pane, "2")
				x.tm.Run("send-keys", "-t", pane, "Enter")
				answered = time.Now()
			}
			settled = 0
		case strings.Contains(s, "Ask Codex to do anything") && strings.Contains(s, "GPT-5.5"):
			// connected to the background server, which asks the question
			// a moment after the model first shows
			if settled++; settled >= 20 {
				return ""
			}
		}
		return "screen:\n" + s
	})
}

// send types text into the pane's TUI and presses Enter.
func (x *tuis) send(pane, text string) {
	x.w.t.Helper()
	x.tm.Run("send-keys", "-t", pane, "-l", text)
	poll(x.w.t, "the TUI shows what was typed", func() string {
		if s := x.screen(pane); !strings.Contains(s, "› "+text) {
			return "screen:\n" + s
		}
		return ""
	})
	x.tm.Run("send-keys", "-t", pane, "Enter")
}

// quit ends the pane's TUI with /quit and waits for it to exit.
func (x *tuis) quit(pane string) {
	x.w.t.Helper()
	x.send(pane, "/quit")
	poll(x.w.t, "the TUI exits", func() string {
		if s := x.screen(pane); !strings.Contains(s, "CODEX-EXIT=") {
			if strings.Contains(s, "› /quit") {
				x.tm.Run("send-keys", "-t", pane, "Enter") // the command list took the first Enter
			}
			return "screen:\n" + s
		}
		return ""
	})
}

// TestConfigWrittenByCodexKept: the real Codex writes config.toml itself
// in a first TUI run (the screen reader check, the answer to the model
// migration question), after the file's last table, jig's. A second `jig
// install codex` and `--uninstall` keep every line Codex wrote, and the
// next TUI does not ask the question again.
func TestConfigWrittenByCodexKept(t *testing.T) {
	w := newWorld(t)
	configFile := filepath.Join(w.codexHome, "config.toml")
	installed, _ := os.ReadFile(configFile)
	x := w.tuis()
	pane := x.open(w.work)
	x.quit(pane)
	written, _ := os.ReadFile(configFile)
	var codexLines []string
	for _, l := range strings.Split(string(written), "\n") {
		if l != "" && !strings.Contains(string(installed), l) {
			codexLines = append(codexLines, l)
		}
	}
	if !strings.Contains(string(written), "screen_reader_detection_done") || !strings.Contains(string(written), "[notice.model_migrations]") {
		t.Fatalf("Codex did not write its own settings (the test sees nothing to keep):\n%s", written)
	}
	t.Logf("Codex wrote %q", codexLines)
	keeps := func(step string) string {
		got, _ := os.ReadFile(configFile)
		for _, l := range codexLines {
			if !strings.Contains(string(got), l+"\n") {
				t.Errorf("%s dropped Codex's line %q:\n%s", step, l, got)
			}
		}
		return string(got)
	}
	if out := w.jigRun("install", "codex"); !strings.Contains(out, "config.toml (up to date)") {
		t.Errorf("a second install rewrote config.toml: %s", out)
	}
	keeps("a second install")
	jigs := 0
	for _, h := range w.hooksList().Hooks {
		if strings.Contains(h.Command, " codex hook") && h.TrustStatus == "trusted" {
			jigs++
		}
	}
	if jigs != 9 {
		t.Errorf("%d of jig's hooks trusted after Codex rewrote config.toml, want 9", jigs)
	}
	w.jigRun("install", "codex", "--uninstall")
	if got := keeps("--uninstall"); strings.Contains(got, "jig") || strings.Contains(got, "hooks.state") {
		t.Errorf("jig's lines left after --uninstall:\n%s", got)
	}
	w.jigRun("install", "codex")
	pane = x.open(w.work)
	if strings.Contains(x.screen(pane), "Use existing model") {
		t.Error("Codex asks the model migration question again")
	}
}

// lookFor is what `jig session for-terminal PANE --json` says, nil when
// it finds no live session there (exit 1).
func (w *world) lookFor(pane string) *status.Status {
	w.t.Helper()
	cmd := exec.Command(w.jig, "session", "for-terminal", pane, "--json")
	cmd.Env = w.env("TMUX=", "TMUX_PANE=")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return nil
	}
	if err != nil {
		w.t.Fatalf("jig session for-terminal %s: %v", pane, err)
	}
	s, err := status.Decode(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// TestTUIsInTwoPanes runs two real TUIs in two tmux panes of one project:
// both are clients of one background server, which runs every hook. Each
// session names its own pane and its own TUI process; after /quit in the
// first pane its session is ended (for-terminal finds nothing there, gc
// removes its file) while the second's goes on.
func TestTUIsInTwoPanes(t *testing.T) {
	w := newWorld(t)
	x := w.tuis()
	sessions := map[string]*status.Status{}
	answered := 0
	answer := func() { // every request the TUIs make gets a reply
		for ; answered < len(w.model.Requests()); answered++ {
			w.model.Queue(scriptedopenai.Reply{Text: "Done.", Usage: scriptedopenai.Usage{Input: 1000, Output: 10}})
		}
	}
	for _, prompt := range []string{"E2E-FIRST hello", "E2E-SECOND hello"} {
		pane := x.open(w.work)
		x.send(pane, prompt)
		var s *status.Status
		poll(t, "the TUI's session is found in its pane", func() string {
			answer()
			if s = w.lookFor(pane); s == nil || s.State != status.Idle || !strings.Contains(x.screen(pane), "Done.") {
				if s != nil {
					return fmt.Sprintf("for-terminal %s: %s, pid %d, %s; screen:\n%s", pane, s.Session, s.PID, s.State, x.screen(pane))
				}
				return fmt.Sprintf("for-terminal %s finds nothing; screen:\n%s", pane, x.screen(pane))
			}
			return ""
		})
		for other, o := range sessions {
			if o.Session == s.Session {
				t.Fatalf("pane %s finds %s's session %s", pane, other, s.Session)
			}
		}
		args, env := readArgs(s.PID), readEnv(s.PID)
		if len(args) == 0 || filepath.Base(args[0]) != "codex" || strings.Contains(strings.Join(args, " "), "app-server") || env["TMUX_PANE"] != pane {
			t.Errorf("pane %s: the session's pid %d is %q in pane %q, not the pane's TUI", pane, s.PID, args, env["TMUX_PANE"])
		}
		if s.Terminal == nil || *s.Terminal != pane {
			t.Errorf("pane %s: the session's terminal is %v", pane, s.Terminal)
		}
		sessions[pane] = s
	}
	if len(codexServers(w.codexHome)) == 0 {
		t.Error("no background server: the test did not run the TUI as people do")
	}
	var first, second string
	for pane := range sessions {
		if first == "" || pane < first {
			first, second = pane, first
		} else {
			second = pane
		}
	}
	x.quit(first)
	poll(t, "the quit TUI's session is ended", func() string {
		if s := w.lookFor(first); s != nil {
			return fmt.Sprintf("for-terminal %s still finds %s (pid %d)", first, s.Session, s.PID)
		}
		return ""
	})
	if out := w.jigRun("session", "gc"); !strings.Contains(out, "removed 1 ended session") {
		t.Errorf("gc: %q", out)
	}
	if s := w.lookFor(second); s == nil || s.Session != sessions[second].Session {
		t.Errorf("the second TUI's session is gone: %+v", s)
	}
}

func readArgs(pid int) []string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
}

func readEnv(pid int) map[string]string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	env := map[string]string{}
	for _, kv := range strings.Split(string(data), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}
