package scripts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// kittyCommand sends one remote-control command to the kitty at sock and
// returns its answer's data, speaking kitty's protocol on the socket
// itself: `kitty @` would start a Python of its own for each look (half a
// second of CPU, far more on a loaded machine).
func kittyCommand(sock, cmd string, payload any) (json.RawMessage, error) {
	conn, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	// 0.26 is the oldest kitty the watcher is written for; a kitty refuses
	// only a client newer than itself.
	req, err := json.Marshal(map[string]any{"cmd": cmd, "version": []int{0, 26, 0}, "payload": payload})
	if err != nil {
		return nil, err
	}
	if _, err := conn.Write(append(append([]byte("\x1bP@kitty-cmd"), req...), "\x1b\\"...)); err != nil {
		return nil, err
	}
	conn.(*net.UnixConn).CloseWrite()
	out, err := io.ReadAll(conn)
	if err != nil {
		return nil, err
	}
	body, ok := bytes.CutPrefix(out, []byte("\x1bP@kitty-cmd"))
	if body, ok = bytes.CutSuffix(body, []byte("\x1b\\")); !ok {
		return nil, fmt.Errorf("kitty @ %s: answer %q", cmd, out)
	}
	var resp struct {
		OK    bool            `json:"ok"`
		Data  json.RawMessage `json:"data"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	if !resp.OK {
		return nil, fmt.Errorf("kitty @ %s: %s", cmd, resp.Error)
	}
	return resp.Data, nil
}

// kittyLs is every window of the kitty at sock and each tab's title.
func kittyLs(sock string) (windows []kittyWindow, tabs []string, err error) {
	data, err := kittyCommand(sock, "ls", nil)
	if err != nil {
		return nil, nil, err
	}
	var text string // ls answers with its JSON as a string
	if err := json.Unmarshal(data, &text); err != nil {
		return nil, nil, err
	}
	var ls []struct {
		Tabs []struct {
			Title   string        `json:"title"`
			Windows []kittyWindow `json:"windows"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(text), &ls); err != nil {
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
// each a shell that names its window; the test writes sessions for them as
// a Pi in each would (KITTY_WINDOW_ID, the shell's pid, its project folder).
// A tab's title becomes its project and its session's status line and
// follows its state, so two agents' tabs stay apart; a tab without a
// session keeps its shell's title, and gets it back once its session ends;
// a title set by hand stays. jig runs (a wrapper logs it) only while a
// session file exists, and only for the windows that have one.
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
	// The watcher runs the jig-line beside the jig that installed it; here
	// a wrapper around it logs each run on one line, so the test sees when
	// it runs and for what.
	fast := filepath.Join(filepath.Dir(jig), "jig-line")
	want := fmt.Sprintf("\nJIG = %q", fast)
	if !bytes.Contains(text, []byte(want)) {
		t.Fatalf("the watcher does not run %s", fast)
	}
	runs := filepath.Join(tmp, "runs.log")
	wrapper := filepath.Join(tmp, "jig-logged")
	if err := os.WriteFile(wrapper, []byte(fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$(printf %%s \"$*\" | tr '\\t\\n' '  ')\" >>%q\nexec %q \"$@\"\n", runs, fast)), 0o755); err != nil {
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
	// A small screen and window, and no cursor blink: Mesa's software
	// renderer draws fewer pixels, less often.
	kitty := exec.Command("xvfb-run", "-a", "-s", "-screen 0 640x480x24", "kitty", "--config", filepath.Join(conf, "kitty.conf"),
		"-o", "allow_remote_control=yes", "-o", "cursor_blink_interval=0", "-o", "remember_window_size=no",
		"-o", "initial_window_width=480", "-o", "initial_window_height=240",
		"--listen-on", "unix:"+sock, "--session", session)
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

	// write writes a session for window w, run from the project folder
	// named project as an agent started there would.
	write := func(w kittyWindow, name, project, fields string, extra ...string) {
		t.Helper()
		dir := filepath.Join(tmp, project)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(jig, append([]string{"session", "write", "--session", name}, extra...)...)
		cmd.Env = append(env, fmt.Sprintf("KITTY_WINDOW_ID=%d", w.ID), "TERM=xterm-kitty")
		cmd.Dir = dir
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
	forTerminal := func(w kittyWindow) string {
		return fmt.Sprintf("session for-terminal %d --preset plain --max-width 40", w.ID)
	}
	// ranOnly fails when the log has a jig run other than the listing and
	// for-terminal of the windows given.
	ranOnly := func(windows ...kittyWindow) {
		t.Helper()
		log, _ := os.ReadFile(runs)
		for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
			if !strings.HasPrefix(line, "session list --format ") && !slices.ContainsFunc(windows, func(w kittyWindow) bool { return line == forTerminal(w) }) {
				t.Errorf("the watcher ran jig %s", line)
			}
		}
	}

	write(agent, "k1", "shop", `{"state": "busy", "model": {"id": "claude-sonnet-4-5"}, "context": {"percent": 42}, "usage": {"cost": 1.5}}`,
		"--pid", fmt.Sprint(agent.PID))
	pollKitty(t, "the agent's tab shows its project and session", titles("shop ● claude-sonnet-4-5 42% $1.50", "plain-shell"))
	ranOnly(agent)
	// A second agent, in another project, in the other tab: each tab keeps
	// its own project.
	write(plain, "k2", "blog", `{"state": "busy", "model": {"id": "claude-sonnet-4-5"}, "context": {"percent": 7}}`,
		"--pid", fmt.Sprint(plain.PID))
	pollKitty(t, "each agent's tab shows its own project", titles("shop ● claude-sonnet-4-5 42% $1.50", "blog ● claude-sonnet-4-5 7%"))
	write(agent, "k1", "shop", `{"state": "idle", "context": {"percent": 81}}`)
	write(plain, "k2", "blog", `{}`, "--end")
	pollKitty(t, "the title follows the session's state, and an ended one gives the shell's title back",
		titles("shop ○ claude-sonnet-4-5 81% $1.50", "plain-shell"))
	write(agent, "k1", "shop", `{}`, "--end")
	pollKitty(t, "the agent's tab gets its shell's title back", titles("agent-shell", "plain-shell"))

	// A title set by hand wins: the watcher, running for the session again,
	// leaves it.
	write(agent, "k3", "shop", `{"state": "busy"}`, "--pid", fmt.Sprint(agent.PID))
	pollKitty(t, "the agent's tab shows its new session", titles("shop ●", "plain-shell"))
	if _, err := kittyCommand(sock, "set-window-title", map[string]any{"match": fmt.Sprintf("id:%d", agent.ID), "title": "mine"}); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(runs)
	seen := strings.Count(string(log), forTerminal(agent))
	pollKitty(t, "the watcher runs jig twice more", func() string {
		log, _ := os.ReadFile(runs)
		if n := strings.Count(string(log), forTerminal(agent)); n < seen+2 {
			return fmt.Sprintf("%d runs: %s", n-seen, log)
		}
		return ""
	})
	pollKitty(t, "the hand-set title stays", titles("mine", "plain-shell"))
	ranOnly(agent, plain)
}

// pollKitty is poll with room for a software-rendered kitty on a busy
// machine: kitty's own timer and the processes it starts wait for the CPU.
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
		time.Sleep(50 * time.Millisecond)
	}
}
