// Package exit is how a jig process ends: its exit codes, the same for
// every command and for every program (jig, jig-fast, jig-line), the one table
// that maps the packages' kinds of error to them, and the one line on
// stderr that says what went wrong.
package exit

import (
	"errors"
	"fmt"
	"io"

	"jig/render"
	"jig/status"
)

// Exit codes; README.md lists them.
const (
	OK        = 0
	None      = 1 // nothing found, nothing waiting, or the answer was no
	Usage     = 2 // the command line is wrong
	StateDir  = 3 // the state dir cannot be read or is not safe
	BadInput  = 4 // stdin or a file given is not what the command takes
	NoSession = 5 // the command needs a live session and found none
	Timeout   = 6 // --wait ran out of time
	Failed    = 7 // anything else went wrong (I/O, a helper program)
	NoProgram = 8 // a program jig drives (herdr) is not installed
)

// Error carries an exit code to run. An empty message exits silently:
// "none found" needs no words on a status line.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Errorf is an error that exits with code and says its words.
func Errorf(code int, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Silent exits with code and says nothing.
func Silent(code int) error { return &Error{Code: code} }

// codes maps the packages' kinds of error to exit codes, the first that
// matches winning: the one place a command's failure gets its code. An
// agent's kinds are marked with these (status.Mark), so no agent is named
// here.
var codes = []struct {
	kind error
	code int
}{
	{status.ErrUnsafeDir, StateDir},
	{status.ErrSymlink, StateDir},
	{status.ErrStateDir, StateDir},
	{render.ErrUsage, Usage},
	{status.ErrUsage, Usage},
	{status.ErrBadInput, BadInput}, // request.BadError is one
	{render.ErrBounds, BadInput},   // a --jq or --format past its bounds
	{status.ErrNoSession, NoSession},
	{status.ErrNotFound, None},
	{status.ErrTimeout, Timeout},
	{status.ErrNoProgram, NoProgram},
}

// Code maps any error from a command to the process's exit code: the code
// it carries (usage errors, silent exits), else its kind's.
func Code(err error) int {
	if err == nil {
		return OK
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	for _, k := range codes {
		if errors.Is(err, k.kind) {
			return k.code
		}
	}
	return Failed
}

// Named is a command's error as it is said: prefixed with the command (its
// name without "jig"), its code from its kind. An Error already made (a
// usage error, a silent exit) stays as it is.
func Named(command string, err error) error {
	if err == nil || errors.As(err, new(*Error)) {
		return err
	}
	return &Error{Code: Code(err), Msg: command + ": " + err.Error()}
}

// Say prints err's line on w, cleaned, as every jig process ends with
// one: nothing for a silent error.
func Say(w io.Writer, err error) {
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(w, "jig: %s\n", render.ErrorLine(msg))
	}
}
