package testsrc

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Attach attaches a tmux client to the server's session, on a pseudo
// terminal of its own, until the test ends: what a person looking at tmux
// is, for the commands that act on "the current client" (switch-client).
func (s *Tmux) Attach(session string) {
	s.t.Helper()
	ptmx, tty, err := openPTY()
	if err != nil {
		s.t.Fatalf("a pseudo terminal: %v", err)
	}
	unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 160})
	cmd := exec.Command("tmux", "-L", s.Socket, "attach-session", "-t", session)
	cmd.Env = append(append([]string{}, s.env...), "TERM=xterm-256color", "TMUX=")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	tty.Close()
	go io.Copy(io.Discard, ptmx) // what the client draws: nobody reads it
	s.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		ptmx.Close()
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if out, _ := s.try("list-clients", "-F", "#{client_tty}"); out != "" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("tmux -L %s: no client attached to %s", s.Socket, session)
		}
	}
}

// try is Run without failing the test.
func (s *Tmux) try(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.Socket}, args...)...)
	cmd.Env = s.env
	out, err := cmd.Output()
	return string(out), err
}

// openPTY opens a pseudo terminal pair: its controlling side and the
// terminal a program runs on.
func openPTY() (*os.File, *os.File, error) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		ptmx.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		ptmx.Close()
		return nil, nil, err
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		ptmx.Close()
		return nil, nil, err
	}
	return ptmx, tty, nil
}
