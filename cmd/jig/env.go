package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/mattn/go-isatty"

	"jig/herdr/herdr1"
	"jig/install"
	"jig/panel"
	"jig/render"
	"jig/status"
	"jig/terminal"
)

// env is everything a command touches outside itself. Nothing below run
// reads os.Getenv, time.Now or os.Stdout directly, so tests can swap them.
type env struct {
	args           []string // the command line, as typed (for error lines)
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time
	hostname       func() (string, error)
	stdoutTTY      bool // stdout is a terminal (or JIG_FORCE_TTY is set)
}

func newEnv() *env {
	e := &env{
		stdin:    os.Stdin,
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getenv:   os.Getenv,
		now:      time.Now,
		hostname: os.Hostname,
	}
	e.stdoutTTY = isatty.IsTerminal(os.Stdout.Fd()) || os.Getenv("JIG_FORCE_TTY") != ""
	if e.stdoutTTY {
		// JSON on a terminal: its strings' bidi and C1 characters as escapes
		e.stdout = render.TerminalWriter(os.Stdout)
	}
	return e
}

// stdoutFile is the file under stdout, for what needs the terminal itself
// (its size, raw mode).
func stdoutFile(w io.Writer) (*os.File, bool) {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return f, ok
}

// stateDir locates the state dir (status.ErrStateDir when there is none).
func (e *env) stateDir() (*status.Dir, error) {
	dir, err := status.Locate(e.getenv)
	if err == nil && e.getenv("JIG_HERDR_REPORTS") != "off" {
		// a session in a Herdr pane tells Herdr of its changes at once
		jig, _ := install.JigPath(e.getenv)
		dir.Changed = herdr1.Reporter(jig, os.Environ())
	}
	return dir, err
}

// columns is how wide the terminal out writes to is: $COLUMNS when set,
// else what the terminal says; 0 when unknown (nothing is cut).
func columns(getenv func(string) string, out io.Writer) int {
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := stdoutFile(out); ok {
		return panel.Width(f)
	}
	return 0
}

// resolve is the session t names (status.Target), its terminals the ones
// this shell runs in. Outside any terminal jig knows, with nothing named,
// the error says to give what hint names.
func (e *env) resolve(t status.Target, hint string) (*status.Dir, *status.Status, error) {
	dir, err := e.stateDir()
	if err != nil {
		return nil, nil, err
	}
	t.Here = terminal.Detect(e.getenv)
	s, err := dir.Resolve(t, e.liveness())
	if errors.Is(err, status.ErrNoTerminal) {
		err = fmt.Errorf("%w; give %s", err, hint)
	}
	return dir, s, err
}

// liveness is how readers decide a session still runs on this machine, and
// which terminal host instances (a tmux server) the ids they take are of.
func (e *env) liveness() status.Liveness {
	h, _ := e.hostname()
	return status.Liveness{Host: h, Instances: terminal.Instances(e.getenv)}
}
