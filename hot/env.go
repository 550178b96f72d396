// Package hot is what a status line runs many times a minute, as jig,
// jig-fast and jig-line run it: `jig session for-terminal`, the environment
// it reads, and the jig the programs beside jig hand the rest to. jig-line
// (AnswerLine) links only this: it answers exactly the command lines it
// reads whole and hands every other to jig by exec, so the two always
// answer alike; jig-fast adds the agents' lines (hot/fast).
package hot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-isatty"

	"jig/herdr/herdr1"
	"jig/render"
	"jig/status"
	"jig/terminal"
)

// Env is everything a command touches outside itself; nothing below reads
// os.Getenv, time.Now or os.Stdout directly, so tests can swap them.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Now            func() time.Time
	Hostname       func() (string, error)
	StdoutTTY      bool // stdout is a terminal (or JIG_FORCE_TTY is set)
}

// OS is the process's own environment.
func OS() *Env {
	e := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now, Hostname: os.Hostname}
	e.StdoutTTY = isatty.IsTerminal(os.Stdout.Fd()) || os.Getenv("JIG_FORCE_TTY") != ""
	if e.StdoutTTY {
		// JSON on a terminal: its strings' bidi and C1 characters as escapes
		e.Stdout = render.TerminalWriter(os.Stdout)
	}
	return e
}

// StateDir locates the state dir (status.ErrStateDir when there is none).
func (e *Env) StateDir() (*status.Dir, error) {
	dir, err := status.Locate(e.Getenv)
	if err == nil && e.Getenv("JIG_HERDR_REPORTS") != "off" {
		// a session in a Herdr pane tells Herdr of its changes at once; the
		// jig to run is looked up at such a change, not at every write
		dir.Changed = herdr1.Reporter(func() string { jig, _ := JigPath(e.Getenv); return jig }, os.Environ)
	}
	return dir, err
}

// Liveness is how readers decide a session still runs on this machine, and
// which terminal host instances (a tmux server) the ids they take are of.
func (e *Env) Liveness() status.Liveness {
	h, _ := e.Hostname()
	return status.Liveness{Host: h, Instances: terminal.Instances(e.Getenv)}
}

// FastName and LineName are the programs beside jig that answer the hot
// command lines: jig-fast the agents' hooks and status lines too, jig-line
// only a terminal's status line.
const (
	FastName = "jig-fast"
	LineName = "jig-line"
)

// JigPath is the jig a hook, a status line or a report runs, by its
// absolute path: $JIG_BIN when it is one, else the running jig — for
// jig-fast or jig-line, the jig beside it.
func JigPath(getenv func(string) string) (string, error) {
	if p := getenv("JIG_BIN"); filepath.IsAbs(p) {
		return p, nil
	}
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find jig's own path: %v", err)
	}
	if name := filepath.Base(bin); name == FastName || name == LineName {
		return beside(bin), nil
	}
	return bin, nil
}

// beside is the jig beside the program at bin, the one it hands lines to.
func beside(bin string) string { return filepath.Join(filepath.Dir(bin), "jig") }

// FastPath is what an installer writes into an agent's hooks and its
// status line: jig-fast when it is installed beside the jig (JigPath),
// else that jig. Either answers every command line alike.
func FastPath(getenv func(string) string) (string, error) { return besideJig(getenv, FastName) }

// LinePath is what an installer writes into a terminal's status line
// (tmux, WezTerm, kitty): jig-line when it is installed beside the jig,
// else FastPath.
func LinePath(getenv func(string) string) (string, error) {
	if p, err := besideJig(getenv, LineName); err != nil || filepath.Base(p) == LineName {
		return p, err
	}
	return FastPath(getenv)
}

// besideJig is the program name beside the jig (JigPath) when it is one
// there, else that jig.
func besideJig(getenv func(string) string, name string) (string, error) {
	jig, err := JigPath(getenv)
	if err != nil {
		return "", err
	}
	p := filepath.Join(filepath.Dir(jig), name)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return p, nil
	}
	return jig, nil
}

// errNoJig: a program beside jig has no jig to hand a line to.
var errNoJig = errors.New("no jig beside")
