package scripts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// kittyWindow is what `kitty @ ls` says of a window.
type kittyWindow struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
	PID   int    `json:"pid"`
}

// kittyLs is every window of the kitty at sock and each tab's title.
func kittyLs(sock string) (windows []kittyWindow, tabs []string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kitty", "@", "--to", "unix:"+sock, "ls")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("kitty @ ls: %v: %s", err, stderr.String())
	}
	var ls []struct {
		Tabs []struct {
			Title   string        `json:"title"`
			Windows []kittyWindow `json:"windows"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal(out, &ls); err != nil {
		return nil, nil, err
	}
	for _, osw := range ls {
		for _, tab := range osw.Tabs {
			tabs = append(tabs, tab.Title)
			windows = append(windows, tab.Windows...)
		}
	}
	return windows, tabs, nil
}

// The kitty watcher, as `jig install kitty --write` saves it and adds it to
// kitty.conf, in a real kitty (headless, under Xvfb): kitty runs two tabs,
// each a shell that names its window; the test writes a session for the
// first window as a Pi in it would (KITTY_WINDOW_ID, the shell's pid). The
// first tab's title becomes the session's status line and follows its
// state; the other tab keeps its shell's title; once the session ends, the
// first gets its shell's title back, and a title set by hand stays. jig runs (a wrapper counts it) only
// while a session file exists, and only for the window that has one.
func TestKittyWatcher(t *testing.T) {
	need(t, "kitty")
	need(t, "xvfb-run")
	need(t, "xauth")
	jig := buildJig(t)
	tmp := t.TempDir()
	state := filepath.Join(tmp, "state")
	conf := filepath.Join(tmp, "config", "kitty")
	env := append(os.Environ(), "HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "KITTY_CONFIG_DIRECTORY=",
		"JIG_STATE_DIR="+state, "XDG_STATE_HOME=", "JIG_BIN=", "TMUX=", "TMUX_PANE=", "WEZTERM_PANE=", "HERDR_PANE_ID=", "HC_TERMINAL_ID=")

	install := exec.Command(jig, "install", "kitty", "--write")
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("jig install kitty --write: %v: %s", err, out)
	}
	watcher := filepath.Join(conf, "jig_kitty.py")
	text, err := os.ReadFile(watcher)
	if err != nil {
		t.Fatal(err)
	}
	// The watcher runs the jig that installed it; here a wrapper around
	// it logs each run, so the test sees when jig runs and for what.
	want := fmt.Sprintf("\nJIG = %q", jig)
	if !bytes.Contains(text, []byte(want)) {
		t.Fatalf("the watcher does not run %s", jig)
	}
	runs := filepath.Join(tmp, "runs.log")
	wrapper := filepath.Join(tmp, "jig-logged")
	if err := os.WriteFile(wrapper, []byte(fmt.Sprintf("#!/bin/sh\necho \"$*\" >>%q\nexec %q \"$@\"\n", runs, jig)), 0o755); err != nil {
		t.Fatal(err)
	}
	text = bytes.Replace(text, []byte(want), []byte(fmt.Sprintf("\nJIG = %q", wrapper)), 1)
	if err := os.WriteFile(watcher, text, 0o644); err != nil {
		t.Fatal(err)
	}

	session := filepath.Join(tmp, "tabs.session")
	if err := os.WriteFile(session, []byte("new_tab\nlaunch sh -c 'printf \"\\033]2;agent-shell\\007\"; exec sleep 600'\n"+
		"new_tab\nlaunch sh -c 'printf \"\\033]2;plain-shell\\007\"; exec sleep 600'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(tmp, "kitty.sock")
	kitty := exec.Command("xvfb-run", "-a", "kitty", "--config", filepath.Join(conf, "kitty.conf"),
		"-o", "allow_remote_control=yes", "--listen-on", "unix:"+sock, "--session", session)
	kitty.Env = append(env, "LIBGL_ALWAYS_SOFTWARE=1", "JIG_KITTY_INTERVAL=0.2")
	var kittyOut bytes.Buffer
	kitty.Stdout, kitty.Stderr = &kittyOut, &kittyOut
	kitty.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // kitty, Xvfb and the shells end together
	if err := kitty.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { kitty.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-kitty.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			syscall.Kill(-kitty.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("kitty's output:\n%s", kittyOut.String())
		}
	})

	var agent, plain kittyWindow
	pollKitty(t, "kitty's two windows, named by their shells", func() string {
		select {
		case <-exited:
			t.Fatalf("kitty exited: %s", kittyOut.String())
		default:
		}
		ws, _, err := kittyLs(sock)
		if err != nil {
			return err.Error()
		}
		for _, w := range ws {
			switch w.Title {
			case "agent-shell":
				agent = w
			case "plain-shell":
				plain = w
			}
		}
		if agent.ID == 0 || plain.ID == 0 {
			return fmt.Sprintf("windows %+v", ws)
		}
		return ""
	})
	// The watcher ticks every 0.2 s; for a second no session exists, so
	// jig must not have run at all.
	time.Sleep(time.Second)
	if log, _ := os.ReadFile(runs); len(log) > 0 {
		t.Fatalf("jig ran with no session file:\n%s", log)
	}

	write := func(fields string, extra ...string) {
		t.Helper()
		cmd := exec.Command(jig, append([]string{"session", "write", "--session", "k1"}, extra...)...)
		cmd.Env = append(env, fmt.Sprintf("KITTY_WINDOW_ID=%d", agent.ID), "TERM=xterm-kitty")
		cmd.Stdin = strings.NewReader(fields)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jig session write: %v: %s", err, out)
		}
	}
	titles := func(wantAgent, wantPlain string) func() string {
		return func() string {
			ws, tabs, err := kittyLs(sock)
			if err != nil {
				return err.Error()
			}
			got := map[int]string{}
			for _, w := range ws {
				got[w.ID] = w.Title
			}
			if got[agent.ID] != wantAgent || got[plain.ID] != wantPlain {
				return fmt.Sprintf("window titles %q and %q, tabs %q", got[agent.ID], got[plain.ID], tabs)
			}
			if len(tabs) != 2 || tabs[0] != wantAgent || tabs[1] != wantPlain {
				return fmt.Sprintf("tab titles %q", tabs)
			}
			return ""
		}
	}

	write(`{"state": "busy", "model": {"id": "claude-sonnet-4-5"}, "context": {"percent": 42}, "usage": {"cost": 1.5}}`,
		"--pid", fmt.Sprint(agent.PID))
	pollKitty(t, "the agent's tab shows its session", titles("● claude-sonnet-4-5 42% $1.50", "plain-shell"))
	write(`{"state": "idle", "context": {"percent": 81}}`)
	pollKitty(t, "the title follows the session's state", titles("○ claude-sonnet-4-5 81% $1.50", "plain-shell"))
	write(`{}`, "--end")
	pollKitty(t, "the agent's tab gets its shell's title back", titles("agent-shell", "plain-shell"))

	// A title set by hand wins: the watcher, running for the session again,
	// leaves it.
	write(`{"state": "busy"}`, "--pid", fmt.Sprint(agent.PID))
	pollKitty(t, "the agent's tab shows its new session", titles("●", "plain-shell"))
	rc := exec.Command("kitty", "@", "--to", "unix:"+sock, "set-window-title", "--match", fmt.Sprintf("id:%d", agent.ID), "mine")
	if out, err := rc.CombinedOutput(); err != nil {
		t.Fatalf("kitty @ set-window-title: %v: %s", err, out)
	}
	forTerminal := fmt.Sprintf("session for-terminal %d --preset plain --max-width 40", agent.ID)
	log, _ := os.ReadFile(runs)
	seen := strings.Count(string(log), forTerminal)
	pollKitty(t, "the watcher runs jig twice more", func() string {
		log, _ := os.ReadFile(runs)
		if n := strings.Count(string(log), forTerminal); n < seen+2 {
			return fmt.Sprintf("%d runs: %s", n-seen, log)
		}
		return ""
	})
	pollKitty(t, "the hand-set title stays", titles("mine", "plain-shell"))

	log, _ = os.ReadFile(runs)
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if line != "session list --json" && line != forTerminal {
			t.Errorf("the watcher ran jig %s", line)
		}
	}
}

// pollKitty is poll with room for a software-rendered kitty on a busy
// machine: each `kitty @ ls` starts a Python, and kitty's own timer and
// the processes it starts wait for the CPU too.
func pollKitty(t *testing.T, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: gave up after 90s: %s", what, msg)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
