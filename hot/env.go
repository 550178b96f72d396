// Package hot is what a status line or an agent runs many times a minute,
// as both jig and jig-fast run it: `jig session for-terminal` and `jig AGENT
// hook`, the environment they read, and the jig they hand the rest to.
// jig-fast (Main) is a program that links only this: it answers exactly the
// command lines it reads whole and hands every other to jig by exec, so the
// two always answer alike.
package hot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-isatty"

	"jig/agents/peer"
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

// HookCall is what an agent's hook gets of e, its event on stdin.
func (e *Env) HookCall(stdin io.Reader) peer.Call {
	host, _ := e.Hostname()
	return peer.Call{Stdin: stdin, Dir: e.StateDir, Now: e.Now, Getenv: e.Getenv, Host: host}
}

// FastName is the program beside jig that answers the hot command lines.
const FastName = "jig-fast"

// JigPath is the jig a hook, a status line or a report runs, by its
// absolute path: $JIG_BIN when it is one, else the running jig — for
// jig-fast, the jig beside it.
func JigPath(getenv func(string) string) (string, error) {
	if p := getenv("JIG_BIN"); filepath.IsAbs(p) {
		return p, nil
	}
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find jig's own path: %v", err)
	}
	if filepath.Base(bin) == FastName {
		return besideFast(bin), nil
	}
	return bin, nil
}

// besideFast is the jig beside the jig-fast at bin, the one it hands lines to.
func besideFast(bin string) string { return filepath.Join(filepath.Dir(bin), "jig") }

// FastPath is what an installer writes into an agent's hooks and a status
// line: jig-fast when it is installed beside the jig (JigPath), else that
// jig. Either answers every command line alike.
func FastPath(getenv func(string) string) (string, error) {
	jig, err := JigPath(getenv)
	if err != nil {
		return "", err
	}
	fast := filepath.Join(filepath.Dir(jig), FastName)
	if fi, err := os.Stat(fast); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return fast, nil
	}
	return jig, nil
}

// errNoJig: jig-fast has no jig to hand a line to.
var errNoJig = errors.New("no jig beside jig-fast")
