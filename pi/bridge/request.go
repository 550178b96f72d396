package bridge

import (
	"slices"
	"strings"
	"time"

	"jig/request"
)

// applyWait bounds how long a request sent to the extension may wait for
// its "applied" before it is answered as not confirmed.
const applyWait = 10 * time.Second

// CheckRequests takes this session's request file, if one waits, resolves
// it against what Pi has (request.Resolve) and sends the extension what to
// apply. The answer is written once the extension says it applied it.
func (b *Bridge) CheckRequests() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session == "" || b.tools == nil {
		return nil // not before Pi said what it has: every name would be unknown
	}
	if p := b.pending; p != nil {
		if b.Now().Sub(b.pendingSince) < applyWait {
			return nil // one request at a time; the next waits in its file
		}
		// The extension never said it applied it: say so, take the next.
		b.pending = nil
		ans := p.Answer
		ans.OK, ans.At = false, b.Now().UTC()
		ans.Message += "; Pi did not confirm it within " + applyWait.String()
		b.answer = &ans
		if err := b.write(); err != nil {
			return err
		}
	}
	out, err := request.Handle(b.Dir, b.session, b.available(), b.switches, b.Now())
	if out != nil && err != nil {
		b.answer = &out.Answer // a bad request with an id: answered, nothing applied
		return b.write()
	}
	if err != nil || out == nil {
		return err
	}
	b.pending, b.pendingSince = out, b.Now() // its switches count once applied
	b.send(Reply{Type: "apply", ID: out.Answer.ID, Active: out.Active, SkillsOff: out.SkillsOff, Switches: out.Switches, Reload: out.Reload})
	return nil
}

// available is what Pi has, in request's terms.
func (b *Bridge) available() request.Available {
	var have request.Available
	for _, t := range b.tools {
		have.Tools = append(have.Tools, t.Name)
		if t.Active {
			have.Active = append(have.Active, t.Name)
		}
		if t.Hidden {
			have.Hidden = append(have.Hidden, t.Name)
		}
	}
	for _, s := range b.skills {
		have.Skills = append(have.Skills, s.Name)
	}
	return have
}

// applied is the extension's word that a request is in force.
func (b *Bridge) applied(a Applied) {
	p := b.pending
	if p == nil || p.Answer.ID != a.ID {
		return
	}
	b.pending = nil
	b.switches = p.Switches
	ans := p.Answer
	if missing := notIn(p.Active, a.Active); len(missing) > 0 {
		ans.OK = false
		ans.Message += "; Pi did not activate " + strings.Join(missing, ", ")
	}
	if p.Reload && a.ReloadUnsupported {
		ans.OK = false
		ans.Message += "; this Pi cannot reload from an extension: type /session-reload"
	}
	ans.At = b.Now().UTC()
	b.answer = &ans
}

// ready tells the extension what the kept switches mean now, before the
// session's first prompt.
func (b *Bridge) ready() {
	active, skillsOff := request.Apply(b.available(), b.switches)
	if len(b.switches.Tools) == 0 {
		active = nil // nothing switched: leave Pi's tools as they are
	}
	b.send(Reply{Type: "ready", Active: active, SkillsOff: skillsOff, Switches: b.switches})
}

// notIn is the names of want that have does not hold.
func notIn(want, have []string) []string {
	var out []string
	for _, n := range want {
		if !slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out
}
