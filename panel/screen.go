//go:build linux || darwin

package panel

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// Run shows a full-screen view on t until onKey says stop (it gets each
// key typed; In closed stops too), SIGINT, SIGTERM or SIGHUP, or ctx's
// end, then gives the terminal back as it was. draw makes the view's lines
// for the terminal's size; Run cuts each to the width and keeps as many
// as fit. It draws at the start, at each value on changed and at each
// resize, and never on a timer: whoever knows of a change says so. draw
// runs away from the loop, one call at a time (changes that come meanwhile
// make one more), so a key or a signal is handled at once even while a
// draw is slow (a herdr that does not answer).
func Run(ctx context.Context, t Terminal, changed <-chan struct{}, draw func(width, height int) []string, onKey func(Key) (stop bool)) error {
	keys := make(chan Key, 8)
	if t.In != nil {
		if restore, err := rawInput(int(t.In.Fd())); err == nil {
			defer restore()
			go readKeys(t.In, keys)
		}
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stop)
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	defer signal.Stop(resized)
	if _, err := io.WriteString(t.Out, enterScreen); err != nil {
		return err
	}
	defer io.WriteString(t.Out, leaveScreen)
	s := &screen{out: t.Out, draw: draw, frames: make(chan string, 1), want: make(chan struct{}, 1), done: make(chan struct{})}
	go s.drawing()
	defer close(s.done)
	defer close(s.want)
	s.redraw()
	for {
		select {
		case f := <-s.frames:
			if err := s.show(f); err != nil {
				return err
			}
		case <-changed:
			s.redraw()
		case <-resized:
			s.last = "" // the terminal may have reflowed what was there
			s.redraw()
		case k, ok := <-keys:
			if !ok || onKey(k) {
				return nil
			}
		case <-stop:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// screen is Run's state: what it asked to draw, and what it showed last.
type screen struct {
	out    *os.File
	draw   func(width, height int) []string
	want   chan struct{} // a draw is asked for; one waiting is enough
	frames chan string   // drawn frames
	done   chan struct{} // closed when Run returns
	last   string
}

// redraw asks for a new frame.
func (s *screen) redraw() {
	select {
	case s.want <- struct{}{}:
	default:
	}
}

// drawing makes a frame for each ask, at the terminal's size then.
func (s *screen) drawing() {
	for range s.want {
		w, h := Size(s.out)
		select {
		case s.frames <- frame(s.draw(w, h), w, h):
		case <-s.done:
			return
		}
	}
}

// show writes a frame unless it is the one on the screen.
func (s *screen) show(f string) error {
	if f == s.last {
		return nil
	}
	s.last = f
	_, err := io.WriteString(s.out, f)
	return err
}

// Size is the width and height of the terminal f is, 80×24 when unknown.
func Size(f *os.File) (int, int) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 80, 24
	}
	return int(ws.Col), int(ws.Row)
}

// Width is the width of the terminal f is; 0 when f is none.
func Width(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// rawInput turns off line buffering and echo so a single key arrives at
// once; Ctrl-C still sends SIGINT. It returns how to put the terminal back.
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

func readKeys(in io.Reader, keys chan<- Key) {
	buf := make([]byte, 16)
	for {
		n, err := in.Read(buf)
		for _, k := range buf[:n] {
			keys <- Key(k)
		}
		if err != nil {
			close(keys)
			return
		}
	}
}
