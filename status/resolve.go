package status

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrNoTerminal is the answer when a command names no session and runs in
// no terminal jig knows.
var ErrNoTerminal = errors.New("not in a terminal jig knows")

// Target is how a command names the session it means: by id, by terminal,
// or by where it runs.
type Target struct {
	Session  string       // a session id given, or ""
	Terminal string       // a terminal id given, or ""
	Here     []TerminalID // the terminals the command runs in, innermost first
	// Live is for a command that needs a live session (watch, wait, a
	// request): a session named by id must still run; of Here only the
	// innermost terminal counts, since an outer id (the WezTerm pane
	// around tmux) is shared by every tmux pane in it and a request must
	// not land on a neighbour; none found is ErrNoSession. Else (show,
	// path, context) a named session's file is read whether it runs or
	// not, each terminal of Here is tried innermost first, outside any
	// terminal the one live session on this machine is meant, and none
	// found is ErrNotFound.
	Live bool
	// OrTerminal: a Session no file has is taken as a terminal id (show's
	// ID, as for-terminal takes it).
	OrTerminal bool
}

// Resolve is the session t names. A named session's file that cannot be
// read is ErrBadInput (a file that is not what the command takes), unless
// it is the state dir's fault.
func (d *Dir) Resolve(t Target, live Liveness) (*Status, error) {
	missing := ErrNotFound
	if t.Live {
		missing = ErrNoSession
	}
	switch {
	case t.Session != "":
		s, err := d.named(t, live, missing)
		if t.OrTerminal && errors.Is(err, missing) {
			if found, terr := d.inTerminals([]string{t.Session}, live, missing); terr == nil {
				return found, nil
			}
		}
		return s, err
	case t.Terminal != "":
		return d.inTerminals([]string{t.Terminal}, live, missing)
	case len(t.Here) == 0 && t.Live:
		return nil, Mark(ErrNoSession, ErrNoTerminal)
	case len(t.Here) == 0:
		return d.onlyLive(live)
	}
	ids := make([]string, len(t.Here))
	for i, h := range t.Here {
		ids[i] = h.ID
	}
	if t.Live {
		ids = ids[:1]
	}
	return d.inTerminals(ids, live, missing)
}

// named reads the session t names by id.
func (d *Dir) named(t Target, live Liveness, missing error) (*Status, error) {
	if err := d.Check(SessionsDir); err != nil {
		return nil, err
	}
	s, err := d.Read(t.Session)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !t.Live:
		return nil, markf(missing, fmt.Sprintf("no session %q", t.Session))
	case errors.Is(err, fs.ErrNotExist) || (err == nil && t.Live && !live.Alive(s)):
		return nil, markf(missing, "no live session "+t.Session)
	case err != nil:
		return nil, Mark(ErrBadInput, err)
	}
	return s, nil
}

// inTerminals is the live session in the first of ids that has one.
func (d *Dir) inTerminals(ids []string, live Liveness, missing error) (*Status, error) {
	for _, id := range ids {
		s, err := d.ForTerminal(id, live)
		if err != nil || s != nil {
			return s, err
		}
	}
	return nil, markf(missing, "no live session in terminal "+ids[0])
}

// onlyLive is the session a command means outside any terminal jig knows
// (a plain shell, a script): the one live session on this machine, when
// there is exactly one.
func (d *Dir) onlyLive(live Liveness) (*Status, error) {
	memo := live.Memo()
	var found []string
	err := d.EachHead(false, func(h *Head, err error) error {
		if err == nil && memo.Alive(h.Status()) {
			found = append(found, h.Session)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	const none = "no terminal id in the environment (see jig terminal) and "
	switch len(found) {
	case 0:
		return nil, markf(ErrNotFound, none+"no live session")
	case 1:
		s, err := d.Read(found[0])
		if err != nil {
			return nil, Mark(ErrNotFound, fmt.Errorf("the one live session has ended meanwhile: %w", err))
		}
		return s, nil
	}
	return nil, markf(ErrNotFound, fmt.Sprintf(none+"%d live sessions: name one (jig session list)", len(found)))
}
