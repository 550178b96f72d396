package hook

import (
	"errors"
	"time"

	"jig/request"
	"jig/status"
)

// switchesWait bounds how long PreToolUse waits for the switches: past it,
// the call is refused (fail closed).
const switchesWait = 2 * time.Second

// refusal decides, without the session's lock, why ev's call is refused:
// "" allows it. The switches are the kept ones with the waiting request's
// laid over (the one order, in the package's comment); when they cannot
// be read, or not within switchesWait, every call is refused and the
// reason says why.
func (h *Hooks) refusal(a *Agent, ev *Event) string {
	type result struct {
		sw  status.Switches
		err error
	}
	done := make(chan result, 1)
	go func() {
		sw, err := h.switchesNow(a, ev.Session)
		done <- result{sw, err}
	}()
	t := time.NewTimer(switchesWait)
	defer t.Stop()
	var res result
	select {
	case res = <-done:
	case <-t.C:
		res.err = errors.New("not read within " + switchesWait.String())
	}
	if res.err != nil {
		return "jig: this session's switches cannot be read (" + status.Cut(res.err.Error()) + "): every call is refused until they can"
	}
	return offReason(h.names(a, ev), ev.Skill, res.sw)
}

// switchesNow are the session's switches as they stand: the request
// first, then the kept switches (a request taken in between was saved into
// them before it left requests/), the request's laid over. A bad request
// switches nothing (its taker answers it).
func (h *Hooks) switchesNow(a *Agent, session string) (status.Switches, error) {
	if h.Dir == nil {
		return status.Switches{}, h.NoDir
	}
	req, err := request.Pending(h.Dir, session)
	if errors.As(err, new(*request.BadError)) {
		req, err = nil, nil
	}
	if err != nil {
		return status.Switches{}, err
	}
	sw, err := h.kept(a).Load(session)
	if err != nil {
		return sw, err
	}
	if req != nil {
		for name, on := range req.Tools {
			sw.Tools[name] = on
		}
		for name, on := range req.Skills {
			sw.Skills[name] = on
		}
	}
	return sw, nil
}

// offReason is why a call of a tool going by names, running skill (""
// none), is refused under sw: "" when nothing it goes by is off.
func offReason(names []string, skill string, sw status.Switches) string {
	for _, name := range names {
		if on, ok := sw.Tools[name]; ok && !on {
			return "jig: tool " + name + " is switched off for this session (jig request tool " + name + " on turns it back on)"
		}
	}
	if on, ok := sw.Skills[skill]; skill != "" && ok && !on {
		return "jig: skill " + skill + " is switched off for this session (jig request skill " + skill + " on turns it back on)"
	}
	return ""
}
