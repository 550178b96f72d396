package bridge

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"jig/request"
	"jig/status"
)

// applyWait bounds how long a request waits for the plugin to append its
// rules before it is answered without them.
const applyWait = 10 * time.Second

// pendingRequest is a request decided and in force for refusals (its
// switches kept), its rules sent to the plugin, its answer not yet written.
type pendingRequest struct {
	answer status.Answer
	since  time.Time
}

// words are how an answer says what OpenCode does with a switch.
var words = request.Hooked{
	Dropped: "OpenCode stops offering it from the model's next request, and jig refuses its calls",
	Idle:    "OpenCode is idle: applies from the next prompt",
	Busy:    "applies from the model's next call",
	Reload:  "reload: OpenCode cannot be reloaded from a plugin; restart it with opencode -c or --session",
}

// CheckRequests takes each session's waiting request. Its switches are
// kept (the plugin refuses from them) before it leaves requests/; the
// permission rules that remove or give back a tool go to the plugin, and
// the answer is written once it appended them.
func (b *Bridge) CheckRequests() {
	now := b.Now()
	for _, ss := range b.sessions {
		if p := ss.pending; p != nil {
			if now.Sub(p.since) < applyWait {
				continue
			}
			ss.pending = nil
			ans := p.answer
			ans.OK, ans.At = false, now.UTC()
			ans.Message += "; OpenCode did not confirm its permission rules within " + applyWait.String() + " (calls are refused all the same)"
			ss.answer = &ans
			b.write(ss)
		}
		if len(b.tools) > 0 {
			b.takeRequest(ss, now)
		}
	}
}

func (b *Bridge) takeRequest(ss *session, now time.Time) {
	req, err := request.Pending(b.Dir, ss.id)
	if err != nil && !errors.As(err, new(*request.BadError)) || req == nil && err == nil {
		return // nothing waits, or the folder cannot be used now: it waits
	}
	var out *request.Outcome
	if req != nil {
		o := request.Resolve(req, b.available(ss), ss.switches, now)
		if b.kept().Save(ss.id, o.Switches) != nil {
			return // not kept: the plugin could not refuse from it, so it waits
		}
		out = &o
	}
	taken, answer, _ := request.Take(b.Dir, ss.id, now)
	switch {
	case answer != nil:
		ss.answer = answer
		b.write(ss)
		return
	case taken == nil:
		return
	case req == nil || taken.ID != req.ID: // merged meanwhile: decided whole
		o := request.Resolve(taken, b.available(ss), ss.switches, now)
		b.kept().Save(ss.id, o.Switches)
		out = &o
	}
	var notes []string
	if len(taken.Skills) > 0 {
		notes = append(notes, "OpenCode's skills are switched in its permission rules (permission.skill), not by jig")
	}
	deny, restore, shared := b.rules(ss.switches, out.Switches)
	if len(shared) > 0 {
		notes = append(notes, "OpenCode offers "+strings.Join(b.group("edit"), ", ")+" under one permission (edit): "+
			strings.Join(shared, ", ")+" is refused, and offered until all of them are off")
	}
	ans := words.Answer(ss.switches, *out, ss.state == status.Idle, notes...)
	ss.switches = out.Switches
	if len(deny)+len(restore) == 0 {
		ss.answer = &ans
		b.write(ss)
		return
	}
	ss.pending = &pendingRequest{answer: ans, since: now}
	b.write(ss) // the switches show at once: they are in force for refusals
	b.send(Apply{Type: "apply", ID: ans.ID, Session: ss.id, Deny: deny, Restore: restore})
}

// applied is the plugin's word on a request's rules.
func (b *Bridge) applied(ss *session, m Message) {
	p := ss.pending
	if p == nil || p.answer.ID != m.ID {
		return
	}
	ss.pending = nil
	ans := p.answer
	if !m.OK {
		ans.OK = false
		ans.Message += "; OpenCode refused the permission rules (" + m.Reason + "): the tool is still offered, and refused"
	}
	ans.At = b.Now().UTC()
	ss.answer = &ans
}

// permission is the permission OpenCode decides a tool's offer by: one
// for every tool that edits files.
func permission(tool string) string {
	if slices.Contains(editTools, tool) {
		return "edit"
	}
	return tool
}

// editTools share OpenCode's edit permission (its tool registry's list).
var editTools = []string{"edit", "write", "apply_patch"}

// group is the tools OpenCode has under a permission.
func (b *Bridge) group(perm string) []string {
	var g []string
	for _, t := range b.tools {
		if permission(t) == perm {
			g = append(g, t)
		}
	}
	return g
}

// denied reports whether sw has every tool under perm off: then jig's
// deny rule removes them from what the model is offered.
func (b *Bridge) denied(sw status.Switches, perm string) bool {
	g := b.group(perm)
	if len(g) == 0 {
		g = []string{perm}
	}
	for _, t := range g {
		if on, ok := sw.Tools[t]; !ok || on {
			return false
		}
	}
	return true
}

// rules are the permissions to deny and to give back going from prev to
// next, and the tools switched off that stay offered (their permission
// holds a tool still on).
func (b *Bridge) rules(prev, next status.Switches) (deny, restore, shared []string) {
	seen := map[string]bool{}
	for _, t := range slices.Sorted(maps.Keys(next.Tools)) {
		perm := permission(t)
		if !seen[perm] {
			seen[perm] = true
			was, now := b.denied(prev, perm), b.denied(next, perm)
			switch {
			case now && !was:
				deny = append(deny, perm)
			case was && !now:
				restore = append(restore, perm)
			}
		}
		if !next.Tools[t] && !b.denied(next, perm) {
			shared = append(shared, t)
		}
	}
	return deny, restore, shared
}
