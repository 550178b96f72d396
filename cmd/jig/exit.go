package main

import (
	"errors"
	"fmt"
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

// exitCode maps any error from a command to the process's exit code.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitFailed
}
