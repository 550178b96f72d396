package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands that drive a real tmux on a private server, so `jig
// panel` is seen as a user sees it:
//
//	tmux require                     fail under CI=true when tmux is missing
//	tmux start W H 'shell command'   a detached session W×H running the command
//	tmux keys KEY...                 send-keys to it
//	tmux resize W H                  resize its window (the panel gets SIGWINCH)
//	tmux do ARGS...                  any tmux command (split-window, select-pane)
//	tmux cursor X                    wait (≤10 s) until the cursor is in column X;
//	                                 with !, after a second it is not
//	screen [-t PANE] REGEXP          wait (≤10 s) until the screen (the active pane's, or PANE's)
//	                                 matches; with !, until it does not
//
// Without tmux a script skips itself, loudly; under CI=true it fails.
func init() {
	scriptCmds["tmux"] = scriptTmux
	scriptCmds["screen"] = scriptScreen
	scriptCmds["waitlines"] = scriptWaitLines
}

// waitlines FILE N waits (≤10 s) until FILE has at least N lines: a fake
// program's call log shows the panel has polled that often.
func scriptWaitLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitlines FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(ts.MkAbs(args[0]))
		if bytes.Count(data, []byte("\n")) >= n {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitlines: %s has %d lines after 10s, want %d", args[0], bytes.Count(data, []byte("\n")), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const tmuxSession = "panel"

func tmuxRun(ts *testscript.TestScript, args ...string) (string, error) {
	sock := ts.Getenv("JIG_TEST_TMUX")
	if sock == "" {
		ts.Fatalf("tmux: no server: run `tmux start` first")
	}
	cmd := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = tmuxEnv(ts)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

// tmuxEnv is what the tmux server (and so the panel in it) runs with: the
// script's PATH (where jig is), its state dir and clock, a plain terminal.
func tmuxEnv(ts *testscript.TestScript) []string {
	env := []string{"TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME=" + ts.Getenv("HOME")}
	for _, k := range []string{"PATH", "WORK", "JIG_STATE_DIR", "JIG_TEST_NOW", "HERDR_ENV", "HERDR_BIN_PATH", "HERDR_PANE_ID", "HERDR_CALLS", "HERDR_PANES", "TMPDIR"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func scriptTmux(ts *testscript.TestScript, neg bool, args []string) {
	if (neg && args[0] != "cursor") || len(args) == 0 {
		ts.Fatalf("usage: tmux start W H CMD | keys KEY... | resize W H | cursor X")
	}
	switch args[0] {
	case "require":
		if _, err := exec.LookPath("tmux"); err != nil && os.Getenv("CI") == "true" {
			ts.Fatalf("tmux is not installed: jig panel cannot be tested")
		}
		// The server's name, and its socket where tmux puts it, known
		// before it starts: a session written "in" it sets TMUX to it.
		sock := fmt.Sprintf("jig-test-%d-%d", os.Getpid(), time.Now().UnixNano())
		ts.Setenv("JIG_TEST_TMUX", sock)
		ts.Setenv("JIG_TEST_TMUX_SOCKET", fmt.Sprintf("/tmp/tmux-%d/%s", os.Getuid(), sock))
	case "start":
		if len(args) != 4 {
			ts.Fatalf("usage: tmux start W H CMD")
		}
		if ts.Getenv("JIG_TEST_TMUX") == "" {
			ts.Fatalf("tmux start: run `tmux require` first")
		}
		tmuxRun(ts, "kill-server") // one an earlier start left exiting; none is usual
		ts.Defer(func() { tmuxRun(ts, "kill-server") })
		var err error
		for try := 0; try < 20; try++ { // a server still exiting refuses the new session: again
			if _, err = tmuxRun(ts, "new-session", "-d", "-s", tmuxSession, "-x", args[1], "-y", args[2], args[3]); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		ts.Check(err)
	case "keys":
		_, err := tmuxRun(ts, append([]string{"send-keys", "-t", tmuxSession}, args[1:]...)...)
		ts.Check(err)
	case "do":
		_, err := tmuxRun(ts, args[1:]...)
		ts.Check(err)
	case "resize":
		if len(args) != 3 {
			ts.Fatalf("usage: tmux resize W H")
		}
		_, err := tmuxRun(ts, "resize-window", "-t", tmuxSession, "-x", args[1], "-y", args[2])
		ts.Check(err)
	case "cursor":
		if len(args) != 2 {
			ts.Fatalf("usage: tmux cursor X")
		}
		if neg {
			time.Sleep(time.Second) // what it types has been drawn
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			x, err := tmuxRun(ts, "display-message", "-p", "-t", tmuxSession, "#{cursor_x}")
			ts.Check(err)
			if at := strings.TrimSpace(x) == args[1]; at != neg {
				ts.Logf("cursor in column %s", strings.TrimSpace(x))
				return
			} else if neg {
				ts.Fatalf("tmux cursor: in column %s, want elsewhere", args[1])
			}
			if time.Now().After(deadline) {
				screen, _ := tmuxRun(ts, "capture-pane", "-p", "-t", tmuxSession)
				ts.Fatalf("tmux cursor: in column %s after 10s, want %s; the screen is:\n%s", strings.TrimSpace(x), args[1], screen)
			}
			time.Sleep(50 * time.Millisecond)
		}
	default:
		ts.Fatalf("tmux: unknown subcommand %q", args[0])
	}
}

func scriptScreen(ts *testscript.TestScript, neg bool, args []string) {
	target := tmuxSession
	if len(args) == 3 && args[0] == "-t" {
		target, args = args[1], args[2:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: screen [-t PANE] REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	ts.Check(err)
	// a bound on a wait, not a figure: a shell starting its prompt on a
	// loaded 2-core machine has taken more than 10 s
	deadline := time.Now().Add(30 * time.Second)
	var screen string
	for {
		screen, err = tmuxRun(ts, "capture-pane", "-p", "-t", target)
		ts.Check(err)
		if re.MatchString(screen) != neg {
			ts.Logf("screen:\n%s", screen)
			return
		}
		if time.Now().After(deadline) {
			want := "match"
			if neg {
				want = "no match"
			}
			ts.Fatalf("screen: want %s for %s within 10s; the screen is:\n%s", want, strconv.Quote(args[0]), screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
