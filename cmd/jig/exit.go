package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/cmdline"
	"jig/herdr/herdr1"
	"jig/opencode"
	"jig/pi/transcript"
	"jig/render"
	"jig/status"
)

// Exit codes, the same for every command; README.md lists them.
const (
	exitOK        = 0
	exitNone      = 1 // nothing found, nothing waiting, or the answer was no
	exitUsage     = 2 // the command line is wrong
	exitStateDir  = 3 // the state dir cannot be read or is not safe
	exitBadInput  = 4 // stdin or a file given is not what the command takes
	exitNoSession = 5 // the command needs a live session and found none
	exitTimeout   = 6 // --wait ran out of time
	exitFailed    = 7 // anything else went wrong (I/O, a helper program)
	exitNoProgram = 8 // a program jig drives (herdr) is not installed
)

// exitError carries an exit code to run. An empty message exits silently:
// "none found" needs no words on a status line.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func exitf(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// silent exits with code and says nothing.
func silent(code int) error { return &exitError{code: code} }

// exitCodes maps the packages' kinds of error to exit codes, the first
// that matches winning: the one place a command's failure gets its code.
var exitCodes = []struct {
	kind error
	code int
}{
	{status.ErrUnsafeDir, exitStateDir},
	{status.ErrSymlink, exitStateDir},
	{status.ErrStateDir, exitStateDir},
	{render.ErrUsage, exitUsage},
	{cmdline.ErrUsage, exitUsage},
	{status.ErrBadInput, exitBadInput}, // request.BadError is one
	{render.ErrBounds, exitBadInput},   // a --jq or --format past its bounds
	{transcript.ErrNotSession, exitBadInput},
	{status.ErrNoSession, exitNoSession},
	{status.ErrNotFound, exitNone},
	{status.ErrTimeout, exitTimeout},
	{herdr1.ErrNotFound, exitNoProgram},
	{opencode.ErrNotInstalled, exitNoProgram},
}

// exitCode maps any error from a command to the process's exit code: the
// code it carries (usage errors, silent exits), else its kind's.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	for _, k := range exitCodes {
		if errors.Is(err, k.kind) {
			return k.code
		}
	}
	return exitFailed
}

// named is a command's error as run prints it: prefixed with the command,
// its code from its kind. An error made here already (a usage error, a
// silent exit) stays as it is.
func named(c *cli.Context, err error) error {
	if err == nil || errors.As(err, new(*exitError)) {
		return err
	}
	return &exitError{code: exitCode(err), msg: commandName(c) + ": " + err.Error()}
}
