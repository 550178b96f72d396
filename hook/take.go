package hook

import (
	"errors"

	"jig/request"
	"jig/status"
)

// errWait leaves a request waiting: the agent cannot say yet what the
// session offers.
var errWait = errors.New("the session cannot say yet what it offers")

// take takes the session's waiting request, if any, once the agent can say
// what the session offers, and writes its answer and switches into s; it
// reports whether it took one. The switches are saved into the kept ones
// before the request leaves requests/ (request.TakeKept). Every request
// taken is answered: one that cannot be done whole says so (ok:false and
// why), what can be done of it applies.
func (h *Hooks) take(a *Agent, offers Offers, s *status.Status) bool {
	if offers == nil {
		return false
	}
	now := h.Now()
	var out request.Outcome
	req, answer, _ := request.TakeKept(h.Dir, s.Session, now, func(req *request.Request) error {
		have, ok := offers.Offers(req, s.Switches)
		if !ok {
			return errWait
		}
		out = request.Resolve(req, have, s.Switches, now)
		return h.kept(a).Save(s.Session, out.Switches)
	})
	switch {
	case answer != nil: // a bad request: answered, nothing switched
		s.LastRequest = answer
		return true
	case req == nil:
		return false // nothing waits, it waits, or the folder cannot be used now (a bad one without an id is gone)
	}
	var notes []string
	if len(req.Skills) > 0 && a.Answers.NoSkills != "" {
		notes = append(notes, a.Answers.NoSkills)
	}
	ans := a.Answers.Answer(s.Switches, out, s.State == status.Idle, notes...)
	s.Switches, s.LastRequest = out.Switches, &ans
	return true
}
