package status

import "errors"

// The kinds of failure a reader's exit code tells apart (jig/exit maps each
// to its code, README's table). An error of one of these kinds says so by
// wrapping it, or through Mark when its own words must stay as they are.
var (
	// ErrStateDir: the state dir, or a folder in it, cannot be read (it
	// is a file, a folder above it is one, it cannot be opened).
	ErrStateDir = errors.New("the state dir cannot be read")
	// ErrBadInput: what the command was given (stdin, a file, a status
	// file it named) is not what it takes.
	ErrBadInput = errors.New("bad input")
	// ErrNoSession: the command needs a live session and found none.
	ErrNoSession = errors.New("no live session")
	// ErrNotFound: nothing matches what was asked for.
	ErrNotFound = errors.New("not found")
	// ErrTimeout: a wait ran out of time.
	ErrTimeout = errors.New("timed out")
	// ErrUsage: the command line is wrong.
	ErrUsage = errors.New("usage error")
	// ErrNoProgram: a program jig drives (herdr, opencode) is not
	// installed.
	ErrNoProgram = errors.New("program not installed")
)

// Mark is err, its words unchanged, also of the given kind (errors.Is
// finds both). A nil err stays nil.
func Mark(kind, err error) error {
	if err == nil {
		return nil
	}
	return &marked{kind: kind, err: err}
}

type marked struct{ kind, err error }

func (m *marked) Error() string   { return m.err.Error() }
func (m *marked) Unwrap() []error { return []error{m.kind, m.err} }

// markf is Mark over a new error with words of its own.
func markf(kind error, msg string) error { return Mark(kind, errors.New(msg)) }
