package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"jig/hot"
	"jig/panel"
	"jig/status"
	"jig/terminal"
)

// env is everything a command touches outside itself (hot.Env: nothing
// below run reads os.Getenv, time.Now or os.Stdout directly, so tests can
// swap them), and the command line as typed, for error lines.
type env struct {
	*hot.Env
	args []string
}

func newEnv() *env { return &env{Env: hot.OS()} }

// stdoutFile is the file under stdout, for what needs the terminal itself
// (its size, raw mode).
func stdoutFile(w io.Writer) (*os.File, bool) {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return f, ok
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
	dir, err := e.StateDir()
	if err != nil {
		return nil, nil, err
	}
	t.Here = terminal.Detect(e.Getenv)
	s, err := dir.Resolve(t, e.Liveness())
	if errors.Is(err, status.ErrNoTerminal) {
		err = fmt.Errorf("%w; give %s", err, hint)
	}
	return dir, s, err
}
