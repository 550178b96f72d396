package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
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

// Error lines cut every value longer than maxValue bytes (a word, or a
// quoted string's content) to its start and end around a marker, so a
// 100 000-digit number or a megabyte of text sent on stdin comes back as
// one short line.
const (
	maxValue  = 64
	valueHead = 32
	valueTail = 16
)

// shortError is err with the values in its message cut (cutValues) and
// its exit code kept: the one way every error line is made.
func shortError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitCode(err), msg: cutValues(err.Error())}
}

// cutValues cuts each value in msg longer than maxValue: a quoted string
// (its content; spaces and escaped quotes inside are part of it) or a run
// of characters that are neither spaces nor quotes.
func cutValues(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		switch {
		case msg[i] == ' ':
			b.WriteByte(' ')
			i++
		case msg[i] == '"':
			end := closingQuote(msg, i)
			if end < 0 {
				b.WriteByte('"')
				i++
				continue
			}
			b.WriteByte('"')
			b.WriteString(cutValue(msg[i+1 : end]))
			b.WriteByte('"')
			i = end + 1
		default:
			end := i + strings.IndexAny(msg[i:], ` "`)
			if end < i {
				end = len(msg)
			}
			b.WriteString(cutValue(msg[i:end]))
			i = end
		}
	}
	return b.String()
}

// closingQuote is the index of the quote that ends the string opened at
// msg[open], skipping backslash escapes; -1 when it is not closed.
func closingQuote(msg string, open int) int {
	for i := open + 1; i < len(msg); i++ {
		switch msg[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// cutValue keeps v's first valueHead and last valueTail bytes (whole UTF-8
// characters) and says how many it cut between them.
func cutValue(v string) string {
	if len(v) <= maxValue {
		return v
	}
	head, tail := valueHead, len(v)-valueTail
	for head > 0 && !utf8.RuneStart(v[head]) {
		head--
	}
	for tail < len(v) && !utf8.RuneStart(v[tail]) {
		tail++
	}
	return fmt.Sprintf("%s…(%d bytes cut)…%s", v[:head], tail-head, v[tail:])
}
