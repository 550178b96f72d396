package request

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"jig/status"
)

// What the commands of both sides need beyond the file: the sender's wait
// for the answer, and the session side's take and decide under the status
// file's lock, for hooks that keep no state of their own.

// errNoStatus stops an update of a session that has no status file.
var errNoStatus = errors.New("no status file")

// TakeAnswering is Take for a hook: a bad request's ok:false answer goes
// into the session's status file (through its writer, under its lock), so
// its sender's --wait hears it; a session without a status file gets none.
// The *BadError comes back all the same.
func TakeAnswering(dir *status.Dir, session string, now time.Time) (*Request, error) {
	req, answer, err := Take(dir, session, now)
	if answer == nil {
		return req, err
	}
	_, werr := dir.Update(session, now, func(s *status.Status) (*status.Status, error) {
		if s == nil {
			return nil, errNoStatus
		}
		s.LastRequest = answer
		return s, nil
	})
	if werr != nil && !errors.Is(werr, errNoStatus) {
		return nil, fmt.Errorf("%v; answering it: %w", err, werr)
	}
	return nil, err
}

// Decide is Handle for a session whose switches are kept in its status
// file: holding the session's lock from reading the switches to writing
// the answer, it takes and decides the waiting request and writes
// lastRequest and switches there. Without a status file the request stays
// waiting rather than be lost (ErrNoSession). What Handle returns comes
// back: nil, nil when none waits; the outcome with a *BadError for a bad
// request, already answered.
func Decide(dir *status.Dir, session string, have Available, now time.Time) (*Outcome, error) {
	var out *Outcome
	var takeErr error
	_, err := dir.Update(session, now, func(s *status.Status) (*status.Status, error) {
		if s == nil {
			return nil, errNoStatus
		}
		out, takeErr = Handle(dir, session, have, s.Switches, now)
		if takeErr != nil && !errors.As(takeErr, new(*BadError)) {
			return nil, takeErr
		}
		if out != nil {
			s.Switches, s.LastRequest = out.Switches, &out.Answer
		}
		return s, nil
	})
	switch {
	case errors.Is(err, errNoStatus):
		return nil, status.Mark(status.ErrNoSession, fmt.Errorf("session %s has no status file; write it first", session))
	case err != nil:
		return nil, err
	}
	return out, takeErr
}

// ReadAvailable reads what the session has: one JSON object. Its errors are
// status.ErrBadInput.
func ReadAvailable(r io.Reader) (Available, error) {
	var have Available
	data, err := io.ReadAll(io.LimitReader(r, status.MaxFileSize+1))
	switch {
	case err != nil:
		return have, status.Mark(status.ErrBadInput, err)
	case len(data) > status.MaxFileSize:
		return have, status.Mark(status.ErrBadInput, fmt.Errorf("larger than %d bytes", status.MaxFileSize))
	}
	if err := json.Unmarshal(data, &have); err != nil {
		return have, status.Mark(status.ErrBadInput,
			fmt.Errorf("want {\"tools\": [...], \"active\": [...], \"hidden\": [...], \"skills\": [...]}: %v", err))
	}
	return have, nil
}

// waitPoll is how often Await reads the status file.
var waitPoll = 50 * time.Millisecond

// Await waits until session's status file answers the request id (see
// Answered) and returns that answer: ErrNoSession when the session ends
// first (its file goes or its process does), ErrTimeout when d runs out.
// It uses timers, not the clock, so a fixed test clock does not stop it.
func Await(dir *status.Dir, session, id string, live status.Liveness, d time.Duration) (*status.Answer, error) {
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	for {
		s, err := dir.Read(session)
		switch {
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		case err != nil || !live.Alive(s):
			return nil, status.Mark(status.ErrNoSession, fmt.Errorf("session %s ended before it answered request %s", session, id))
		case Answered(s.LastRequest, id):
			return s.LastRequest, nil
		}
		select {
		case <-timeout.C:
			return nil, status.Mark(status.ErrTimeout, fmt.Errorf("no answer to request %s from session %s within %s", id, session, d))
		case <-tick.C:
		}
	}
}

// ParseSwitches reads the switches of a command line: `NAME on|off`, or
// `NAME=on|off ...`.
func ParseSwitches(args []string) (map[string]bool, error) {
	if len(args) == 0 {
		return nil, errors.New("want NAME on|off, or NAME=on|off pairs")
	}
	for _, a := range args {
		if _, err := time.ParseDuration(a); err == nil {
			return nil, fmt.Errorf("%q: a duration goes with its flag: --wait=%s", a, a)
		}
	}
	if len(args) == 2 && !strings.Contains(args[0], "=") && !strings.Contains(args[1], "=") {
		args = []string{args[0] + "=" + args[1]}
	}
	m := map[string]bool{}
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want NAME on|off, or NAME=on|off pairs", a)
		}
		if err := CheckName(name); err != nil {
			return nil, fmt.Errorf("%q: %v", a, err)
		}
		switch val {
		case "on":
			m[name] = true
		case "off":
			m[name] = false
		default:
			return nil, fmt.Errorf("%q: want on or off, got %q", a, val)
		}
	}
	return m, nil
}
