//go:build linux || darwin

package main

import (
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jig/panel"
)

// Escape sequences of the live panel. It redraws in place (cursor home,
// overwrite each line, clear to its end, clear below) so a refresh never
// blanks the screen: no flicker.
const (
	enterScreen = "\x1b[?1049h\x1b[?25l" // alternate screen, cursor hidden
	leaveScreen = "\x1b[?25h\x1b[?1049l"
	home        = "\x1b[H"
	clearEOL    = "\x1b[K"
	clearBelow  = "\x1b[J"
)

// runLivePanel draws the panel every interval and on a resize until q,
// SIGINT, SIGTERM or SIGHUP, then gives the terminal back as it was.
func runLivePanel(e *env, src *panelSource, interval time.Duration) error {
	out, ok := stdoutFile(e.stdout)
	if !ok {
		_, lines := src.frame()
		_, err := io.WriteString(e.stdout, strings.Join(lines, "\n")+"\n")
		return err
	}
	keys := make(chan byte, 8)
	if in, ok := e.stdin.(*os.File); ok {
		if restore, err := rawInput(int(in.Fd())); err == nil {
			defer restore()
			go readKeys(in, keys)
		}
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stop)
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	defer signal.Stop(resized)

	if _, err := io.WriteString(out, enterScreen); err != nil {
		return err
	}
	defer io.WriteString(out, leaveScreen)

	// The view is worked out away from the loop, so q, a signal or a
	// resize is handled at once even while a read is slow (a herdr that
	// does not answer takes up to its timeout). One read at a time; a tick
	// that comes while one runs is skipped.
	type view struct {
		title string
		lines []string
	}
	want := make(chan struct{}, 1)
	views := make(chan view, 1)
	go func() {
		for range want {
			title, lines := src.frame()
			views <- view{title, lines}
		}
	}()
	defer close(want)
	reading := false
	read := func() {
		if !reading {
			reading = true
			want <- struct{}{}
		}
	}

	tick := time.NewTicker(interval)
	defer tick.Stop()
	var shown *view
	last := ""
	draw := func() error {
		if shown == nil {
			return nil
		}
		w, h := termSize(int(out.Fd()))
		f := screenFrame(append([]string{shown.title, ""}, shown.lines...), w, h)
		if f == last {
			return nil
		}
		last = f
		_, err := io.WriteString(out, f)
		return err
	}
	read()
	for {
		select {
		case v := <-views:
			reading = false
			shown = &v
		case <-tick.C:
			read()
			continue
		case <-resized:
			last = "" // the terminal may have reflowed what was there
		case k, ok := <-keys:
			if !ok || k == 'q' || k == 'Q' {
				return nil
			}
			continue
		case <-stop:
			return nil
		}
		if err := draw(); err != nil {
			return err
		}
	}
}

// screenFrame is one redraw: each line cut to the width, at most h lines,
// no newline after the last so the screen never scrolls.
func screenFrame(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	var b strings.Builder
	b.WriteString(home)
	for i, l := range lines {
		b.WriteString(panel.Fit(l, w))
		b.WriteString(clearEOL)
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	b.WriteString(clearBelow)
	return b.String()
}

// termSize is the terminal's width and height, 80×24 when unknown.
func termSize(fd int) (int, int) {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 80, 24
	}
	return int(ws.Col), int(ws.Row)
}

// rawInput turns off line buffering and echo so a single q arrives at once;
// Ctrl-C still sends SIGINT. It returns how to put the terminal back.
func rawInput(fd int) (func(), error) {
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
		return nil, err
	}
	return func() { unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}

func readKeys(in io.Reader, keys chan<- byte) {
	buf := make([]byte, 16)
	for {
		n, err := in.Read(buf)
		for _, k := range buf[:n] {
			keys <- k
		}
		if err != nil {
			close(keys)
			return
		}
	}
}

// stdoutWidth is the width of the terminal w writes to; 0 when w is not one.
func stdoutWidth(w io.Writer) int {
	f, ok := stdoutFile(w)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
