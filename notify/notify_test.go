package notify

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"jig/internal/testsrc"
	"jig/status"
)

var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

func snap(session, state string, a *status.Attention, tokens int64) *status.Status {
	return &status.Status{Session: session, State: state, Attention: a, Agent: status.AgentClaude, CWD: "/w/shop",
		Context: status.Context{Tokens: &tokens}}
}

func ask(tool string, since time.Time) *status.Attention {
	return &status.Attention{Kind: status.AttentionPermission, Tool: tool, Since: since}
}

// A stream of snapshots makes one transition per change of state: none for
// a write that changed something else, none for the same wait written
// again, one for a new wait (another tool, or the same tool asked again
// later), one end; a session already there when watching began makes none
// for its first state, one that began later does.
func TestTrackerTransitions(t *testing.T) {
	tr := NewTracker(Kinds)
	tr.Start(snap("a", status.Idle, nil, 1))
	var got []string
	feed := func(s *status.Status) {
		if ev, ok := tr.Update(s); ok {
			got = append(got, ev.Status.Session+":"+ev.Kind)
		}
	}
	end := func(id string) {
		if ev, ok := tr.Ended(id); ok {
			got = append(got, ev.Status.Session+":"+ev.Kind)
		}
	}
	feed(snap("a", status.Idle, nil, 2))                    // the context grew: no transition
	feed(snap("a", status.Busy, nil, 3))                    // busy
	feed(snap("a", status.Busy, nil, 4))                    // busy again: none
	feed(snap("a", status.Busy, ask("Bash", t0), 5))        // waits
	feed(snap("a", status.Busy, ask("Bash", t0), 6))        // the same wait: none
	feed(snap("a", status.Busy, ask("Edit", t0), 7))        // another tool waits
	feed(snap("a", status.Busy, ask("Edit", t0.Add(1)), 8)) // asked again later
	feed(snap("a", status.Busy, nil, 9))                    // answered: busy
	feed(snap("b", status.Busy, nil, 1))                    // b began after the watch did
	feed(snap("a", status.Idle, nil, 10))
	feed(snap("a", status.Idle, &status.Attention{Kind: status.AttentionError, Since: t0}, 10))
	end("a")
	end("a") // once
	end("c") // never seen
	want := []string{"a:busy", "a:attention", "a:attention", "a:attention", "a:busy", "b:busy", "a:idle", "a:attention", "a:end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("transitions\n got %q\nwant %q", got, want)
	}
	if tr.Watching("a") || !tr.Watching("b") {
		t.Errorf("watching a %v, b %v", tr.Watching("a"), tr.Watching("b"))
	}
}

// Only the kinds asked for are reported, but every snapshot moves the
// state: going busy, then waiting, then busy again reports the wait once.
func TestTrackerOn(t *testing.T) {
	tr := NewTracker([]string{Attention})
	tr.Start(snap("a", status.Idle, nil, 1))
	var n int
	for i, s := range []*status.Status{
		snap("a", status.Busy, nil, 1), snap("a", status.Busy, ask("Bash", t0), 1),
		snap("a", status.Busy, nil, 1), snap("a", status.Idle, nil, 1),
	} {
		if ev, ok := tr.Update(s); ok {
			n++
			if ev.Kind != Attention || i != 1 {
				t.Errorf("snapshot %d: %s reported", i, ev.Kind)
			}
		}
	}
	if _, ok := tr.Ended("a"); ok || n != 1 {
		t.Errorf("%d events, an end reported without asking", n)
	}
}

func TestParseOn(t *testing.T) {
	for in, want := range map[string][]string{
		"":                        Kinds,
		"attention":               {Attention},
		" idle , busy,end":        {Idle, Busy, End},
		"attention,idle,busy,end": {Attention, Idle, Busy, End},
	} {
		got, err := ParseOn(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseOn(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"waiting", "idle,", "attention,\x1b[2J"} {
		if _, err := ParseOn(bad); err == nil {
			t.Errorf("ParseOn(%q): no error", bad)
		}
	}
}

// The project is the ticket's key, else the git work tree's name, else the
// folder's; cleaned.
func TestProject(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "web", "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    *status.Status
		want string
	}{
		{&status.Status{CWD: filepath.Join(repo, "web", "src"), Ticket: &status.Ticket{Key: "SHOP-142"}}, "SHOP-142"},
		{&status.Status{CWD: filepath.Join(repo, "web", "src")}, "shop"},
		{&status.Status{CWD: repo}, "shop"},
		{&status.Status{CWD: filepath.Join(tmp, "notes\x1b]0;x\a")}, "notes?]0;x?"},
		{&status.Status{}, ""},
	} {
		if got := Project(c.s); got != c.want {
			t.Errorf("Project(%q) = %q, want %q", c.s.CWD, got, c.want)
		}
	}
}

func TestLineAndEnv(t *testing.T) {
	term := "%3"
	s := &status.Status{Session: "s1", Terminal: &term, Agent: status.AgentClaude, State: status.Busy,
		Attention: ask("Bash", t0), Ticket: &status.Ticket{Key: "SHOP-142"}}
	ev := Event{Kind: Attention, Status: s}
	if got, want := ev.Line(), "SHOP-142: Bash waits for approval"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	want := []string{"JIG_SESSION=s1", "JIG_TERMINAL=%3", "JIG_AGENT=claude-code", "JIG_STATE=attention",
		"JIG_ATTENTION=permission", "JIG_TOOL=Bash", "JIG_PROJECT=SHOP-142"}
	if got := ev.Env(); !reflect.DeepEqual(got, want) {
		t.Errorf("env\n got %q\nwant %q", got, want)
	}
	for _, c := range []struct {
		ev   Event
		want string
	}{
		{Event{Idle, &status.Status{Agent: status.AgentPi, CWD: "/w/notes"}}, "notes: Pi is idle"},
		{Event{Busy, &status.Status{Agent: status.AgentCodex}}, "Codex is busy"},
		{Event{End, &status.Status{Agent: "", CWD: "/w/x"}}, "x: the agent ended"},
		{Event{Attention, &status.Status{CWD: "/w/x", Attention: &status.Attention{Kind: status.AttentionQuestion}}}, "x: a question waits for an answer"},
	} {
		if got := c.ev.Line(); got != c.want {
			t.Errorf("line %q, want %q", got, c.want)
		}
	}
	// After the wait, the environment names no attention.
	env := Event{Kind: Busy, Status: &status.Status{Session: "s\x1b[2J", State: status.Busy}}.Env()
	if env[0] != "JIG_SESSION=s?[2J" || env[4] != "JIG_ATTENTION=" || env[5] != "JIG_TOOL=" {
		t.Errorf("env %q", env)
	}
}

// --exec runs the command once per event, with the event in its
// environment, in order, waiting for each; a failing command says so.
func TestExec(t *testing.T) {
	log := filepath.Join(t.TempDir(), "runs")
	var stdout bytes.Buffer
	x := &Exec{Command: `echo "$JIG_STATE $JIG_ATTENTION $JIG_TOOL $JIG_PROJECT $KEPT" >> "$LOG"; echo out`,
		Environ: []string{"LOG=" + log, "KEPT=yes"}, Stdout: &stdout, Stderr: &stdout}
	for _, ev := range []Event{
		{Attention, &status.Status{CWD: "/w/shop", Attention: ask("Bash", t0)}},
		{Busy, &status.Status{CWD: "/w/shop", State: status.Busy}},
	} {
		if err := x.Run(ev); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if want := "attention permission Bash shop yes\nbusy   shop yes\n"; string(data) != want {
		t.Errorf("runs:\n%s\nwant:\n%s", data, want)
	}
	if stdout.String() != "out\nout\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	x.Command = "exit 3"
	if err := x.Run(Event{Idle, &status.Status{}}); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("a failing command: %v", err)
	}
}

// standIn writes an executable that records its arguments, one per line,
// in $dir/NAME.log.
func standIn(t *testing.T, dir, name, body string) {
	t.Helper()
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> \"$0.log\"\n" + body
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func getenv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// The notifier is notify-send where there is one and a desktop to show
// it, else tmux's message inside tmux, else the terminal's own.
func TestNewNotifier(t *testing.T) {
	bin := t.TempDir()
	standIn(t, bin, "notify-send", "")
	standIn(t, bin, "tmux", "")
	for _, c := range []struct {
		env map[string]string
		via string
	}{
		{map[string]string{"PATH": bin, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus", "TMUX": "/t,1,0"}, ViaNotifySend},
		{map[string]string{"PATH": bin, "WAYLAND_DISPLAY": "wayland-0"}, ViaNotifySend},
		{map[string]string{"PATH": bin, "TMUX": "/t,1,0", "TMUX_PANE": "%3"}, ViaTmux},
		{map[string]string{"PATH": "/nonexistent", "TMUX": "/t,1,0", "DISPLAY": ":0"}, ViaOSC9},
		{map[string]string{"PATH": bin, "TERM": "xterm-256color"}, ViaOSC9},
		{map[string]string{"PATH": bin, "TERM": "foot"}, ViaOSC777},
		{map[string]string{"PATH": bin, "TERM": "rxvt-unicode-256color"}, ViaOSC777},
	} {
		if n := NewNotifier(getenv(c.env)); n.Via != c.via {
			t.Errorf("%v: via %s, want %s", c.env, n.Via, c.via)
		}
	}
	if n := NewNotifier(getenv(map[string]string{"PATH": bin, "TMUX": "/t,1,0", "TMUX_PANE": "%3"})); n.Pane != "%3" {
		t.Errorf("tmux pane %q", n.Pane)
	}
}

// Each way says one cleaned line that names the project and what waits:
// notify-send's arguments, tmux's (a '#' doubled, as tmux expands formats
// in a message), the OSC sequences' bytes; a notifier that fails says so.
func TestNotifierSays(t *testing.T) {
	bin := t.TempDir()
	standIn(t, bin, "notify-send", "")
	standIn(t, bin, "tmux", "")
	standIn(t, bin, "broken", "echo 'cannot connect to the bus' >&2; exit 1")
	ev := Event{Attention, &status.Status{CWD: "/w/sh#op\x1b[2J", Attention: ask("Bash", t0)}}
	line := "sh#op?[2J: Bash waits for approval"
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(bin, name+".log"))
		return string(data)
	}
	if err := (&Notifier{Via: ViaNotifySend, Program: filepath.Join(bin, "notify-send")}).Run(ev); err != nil {
		t.Fatal(err)
	}
	if got, want := read("notify-send"), "--app-name=jig\n--\njig\n"+line+"\n"; got != want {
		t.Errorf("notify-send got %q, want %q", got, want)
	}
	if err := (&Notifier{Via: ViaTmux, Program: filepath.Join(bin, "tmux"), Pane: "%3"}).Run(ev); err != nil {
		t.Fatal(err)
	}
	if got, want := read("tmux"), "display-message\n-p\n-t\n%3\n#{pane_tty}\ndisplay-message\n-d\n0\n-t\n%3\njig: sh##op?[2J: Bash waits for approval\n"; got != want {
		t.Errorf("tmux got %q, want %q", got, want)
	}
	for via, want := range map[string]string{
		ViaOSC9:   "\x1b]9;jig: " + line + "\a",
		ViaOSC777: "\x1b]777;notify;jig;" + line + "\a",
	} {
		var tty bytes.Buffer
		if err := (&Notifier{Via: via, TTY: &tty}).Run(ev); err != nil || tty.String() != want {
			t.Errorf("%s wrote %q (%v), want %q", via, tty.String(), err, want)
		}
	}
	err := (&Notifier{Via: ViaNotifySend, Program: filepath.Join(bin, "broken")}).Run(ev)
	if err == nil || err.Error() != "--notify: broken: cannot connect to the bus" {
		t.Errorf("a failing notifier: %v", err)
	}
}

// Inside a private tmux, the message reaches the client's status line as
// the person sees it (a client of that tmux runs in a pane of a second,
// outer tmux, whose capture-pane returns the client's screen).
func TestNotifierInRealTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is missing: run .ci/provision")
		}
		t.Skip("tmux is missing (.ci/provision installs it)")
	}
	tmp := t.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	inner, outer := testsrc.NewTmux(t, "inner", env), testsrc.NewTmux(t, "outer", env)
	pane := inner.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "100", "-y", "5", "-P", "-F", "#{pane_id}", "exec sleep 600")
	inner.Run("set", "-g", "display-time", "20000")
	socket := inner.Run("display", "-p", "#{socket_path}")
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "5", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t main")
	deadline := time.Now().Add(20 * time.Second)
	for inner.Run("list-clients", "-F", "#{client_name}") == "" {
		if time.Now().After(deadline) {
			t.Fatal("no client attached to the inner tmux")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The watch runs in the inner tmux's pane: TMUX and TMUX_PANE say so.
	t.Setenv("TMUX", socket+",1,0")
	t.Setenv("TMUX_TMPDIR", tmp)
	n := NewNotifier(getenv(map[string]string{"PATH": "/usr/bin:/bin", "TMUX": socket + ",1,0", "TMUX_PANE": pane}))
	if n.Via != ViaTmux {
		t.Fatalf("via %s, want tmux", n.Via)
	}
	if err := n.Run(Event{Attention, &status.Status{CWD: "/w/shop", Attention: ask("Bash", t0)}}); err != nil {
		t.Fatal(err)
	}
	for {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		if last := rows[len(rows)-1]; strings.Contains(last, "jig: shop: Bash waits for approval") {
			t.Logf("tmux shows: %q", last)
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("tmux's message line %q", last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Inside a private tmux, a wait in a pane of another window rings that
// pane's bell: tmux marks its window (window_bell_flag, ! in the window
// list) until it is visited. The message stays until a key is pressed, even
// with display-time at 1 ms.
func TestNotifierRingsTheWaitingPanesBell(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is missing: run .ci/provision")
		}
		t.Skip("tmux is missing (.ci/provision installs it)")
	}
	tmp := t.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	inner, outer := testsrc.NewTmux(t, "inner", env), testsrc.NewTmux(t, "outer", env)
	watch := inner.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "100", "-y", "5", "-P", "-F", "#{pane_id}", "exec sleep 600")
	agent := inner.Run("new-window", "-d", "-t", "main", "-n", "agent", "-P", "-F", "#{pane_id}", "exec sleep 600")
	inner.Run("set", "-g", "display-time", "1")
	socket := inner.Run("display", "-p", "#{socket_path}")
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "5", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t main")
	deadline := time.Now().Add(20 * time.Second)
	for inner.Run("list-clients", "-F", "#{client_name}") == "" {
		if time.Now().After(deadline) {
			t.Fatal("no client attached to the inner tmux")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Setenv("TMUX", socket+",1,0")
	t.Setenv("TMUX_TMPDIR", tmp)
	n := NewNotifier(getenv(map[string]string{"PATH": "/usr/bin:/bin", "TMUX": socket + ",1,0", "TMUX_PANE": watch}))
	s := &status.Status{CWD: "/w/shop", Attention: ask("Bash", t0),
		Terminals: []status.TerminalID{{From: "TMUX_PANE", ID: agent, Instance: socket}}}
	if err := n.Run(Event{Attention, s}); err != nil {
		t.Fatal(err)
	}
	for inner.Run("display", "-p", "-t", agent, "#{window_bell_flag}") != "1" {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's window has no bell: %s", inner.Run("list-windows", "-F", "#{window_name} #{window_flags}"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if flags := inner.Run("list-windows", "-F", "#{window_name}#{window_flags}"); !strings.Contains(flags, "agent!") {
		t.Errorf("the window list does not mark the agent's window: %q", flags)
	}
	for {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		if last := rows[len(rows)-1]; strings.Contains(last, "jig: shop: Bash waits for approval") {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the message is not kept: %q", last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
