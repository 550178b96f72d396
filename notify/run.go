package notify

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

// Timeout bounds one notification: a notifier that hangs must not stop the
// watch. A command of the person's own (Exec) runs as long as it takes.
const Timeout = 5 * time.Second

// Exec runs a shell command of the person's own once per event, with the
// event's Env added to Environ; it waits for the command to end, so runs
// come one at a time, in the order of the transitions.
type Exec struct {
	Command        string
	Environ        []string // the environment the command gets, before the event's
	Stdout, Stderr io.Writer
}

// Run runs the command for ev and says how it failed.
func (x *Exec) Run(ev Event) error {
	cmd := exec.Command("/bin/sh", "-c", x.Command)
	cmd.Env = append(append([]string{}, x.Environ...), ev.Env()...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, x.Stdout, x.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("--exec: %w", err)
	}
	return nil
}

// How a Notifier says an event.
const (
	ViaNotifySend = "notify-send" // the desktop's notifier
	ViaTmux       = "tmux"        // inside tmux: the waiting pane's bell and a message kept until a key
	ViaOSC9       = "osc9"        // the terminal's own notification: ESC ] 9 ; text BEL
	ViaOSC777     = "osc777"      // ESC ] 777 ; notify ; title ; text BEL (urxvt, foot)
)

// Notifier says each event's Line where the person sees it.
type Notifier struct {
	Via     string
	Program string    // notify-send or tmux, absolute
	Pane    string    // tmux: the pane whose clients show the message ($TMUX_PANE)
	Socket  string    // tmux: the server's socket ($TMUX's first part)
	TTY     io.Writer // OSC: the terminal watch runs in
}

// NewNotifier picks the way: notify-send where there is one (on PATH, with
// a desktop session to show it: a D-Bus session bus, X or Wayland), inside
// tmux (TMUX) the bell of the session's pane, which tmux keeps as ! on its
// window till it is visited, and a message kept until a key is pressed,
// else the terminal's own notification
// (written to TTY, which the caller sets: Terminal): OSC 777 for the terminals that take that one (urxvt,
// foot), else OSC 9 (WezTerm, iTerm2, kitty, Windows Terminal, Ghostty).
func NewNotifier(getenv func(string) string) *Notifier {
	desktop := getenv("DBUS_SESSION_BUS_ADDRESS") != "" || getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
	if p := lookPath(getenv("PATH"), "notify-send"); p != "" && desktop {
		return &Notifier{Via: ViaNotifySend, Program: p}
	}
	if getenv("TMUX") != "" {
		if p := lookPath(getenv("PATH"), "tmux"); p != "" {
			socket, _, _ := strings.Cut(getenv("TMUX"), ",")
			return &Notifier{Via: ViaTmux, Program: p, Pane: getenv("TMUX_PANE"), Socket: socket}
		}
	}
	term := getenv("TERM")
	if strings.HasPrefix(term, "rxvt") || strings.HasPrefix(term, "foot") {
		return &Notifier{Via: ViaOSC777}
	}
	return &Notifier{Via: ViaOSC9}
}

// Open is NewNotifier with its terminal opened for the terminal's own
// notifications (OSC 9/777): this process's (Terminal), else fallback.
// close lets it go.
func Open(getenv func(string) string, fallback io.Writer) (n *Notifier, close func()) {
	n = NewNotifier(getenv)
	if n.Via != ViaOSC9 && n.Via != ViaOSC777 {
		return n, func() {}
	}
	n.TTY, close = Terminal(fallback)
	return n, close
}

// lookPath finds a program in the PATH given (the watch's own environment,
// which a test may set), "" when it is not there.
func lookPath(path, name string) string {
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// Run says ev's line.
func (n *Notifier) Run(ev Event) error {
	line := render.Clean(ev.Line())
	switch n.Via {
	case ViaNotifySend:
		return n.run(n.Program, "--app-name=jig", "--", "jig", line)
	case ViaTmux:
		n.bell(n.sessionPane(ev.Status))               // a mark that stays; the message is the words
		args := []string{"display-message", "-d", "0"} // until a key is pressed
		if n.Pane != "" {
			args = append(args, "-t", n.Pane)
		}
		// The message is a tmux format: '#' doubled shows as itself.
		return n.run(n.Program, append(args, "jig: "+render.TmuxEscape(line))...)
	case ViaOSC777:
		_, err := fmt.Fprintf(n.TTY, "\x1b]777;notify;jig;%s\a", line)
		return err
	}
	_, err := fmt.Fprintf(n.TTY, "\x1b]9;jig: %s\a", line)
	return err
}

// sessionPane is the session's pane on this tmux server, else the watch's
// own.
func (n *Notifier) sessionPane(s *status.Status) string {
	if s != nil {
		for _, t := range s.Terminals {
			if t.From == terminal.Tmux && (t.Instance == "" || t.Instance == n.Socket) {
				return t.ID
			}
		}
	}
	return n.Pane
}

// bell rings pane's bell: a BEL written to its terminal, which tmux marks
// on the pane's window (window_bell_flag, ! in the window list) until the
// window is visited. A pane that is gone, or a tty that will not take it
// at once, rings nothing.
func (n *Notifier) bell(pane string) {
	if pane == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, n.Program, "display-message", "-p", "-t", pane, "#{pane_tty}").Output()
	tty := strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(tty, "/dev/") {
		return
	}
	f, err := os.OpenFile(tty, os.O_WRONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		f.Write([]byte("\a"))
	}
}

func (n *Notifier) run(program string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.WaitDelay = 500 * time.Millisecond
	out, err := cmd.CombinedOutput()
	name := filepath.Base(program)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("--notify: %s: no answer within %s", name, Timeout)
	case err != nil:
		msg, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("--notify: %s: %s", name, render.Clean(status.Cut(msg)))
	}
	return nil
}
