package request

import (
	"strings"

	"jig/status"
)

// Hooked is how an answer is worded for a host jig steers through its hooks
// (Claude Code, Codex): it cannot drop a tool mid-session, so a switch off
// is enforced by refusing the calls, and it cannot be reloaded from outside.
type Hooked struct {
	Dropped string // said when a switch turns off what was on
	Idle    string // when a switch applies, the session idle
	Busy    string // when a switch applies, the session working
	Reload  string // why a reload asked for is not done
	// NoSkills, when set, is said when a request switches skills: the
	// host has none jig can switch.
	NoSkills string
}

// Answer is out's answer as h says it: Resolve's "reload when idle" left
// out, then what was dropped, notes, when it applies, and a reload answered
// no. prev are the switches before out.
func (h Hooked) Answer(prev status.Switches, out Outcome, idle bool, notes ...string) status.Answer {
	ans := out.Answer
	for _, said := range []string{", reload when idle", "reload when idle; ", "reload when idle"} {
		if strings.Contains(ans.Message, said) { // answered below: the host cannot
			ans.Message = strings.Replace(ans.Message, said, "", 1)
			break
		}
	}
	var said []string
	if newlyOff(prev, out.Switches) {
		said = append(said, h.Dropped)
	}
	said = append(said, notes...)
	if idle {
		said = append(said, h.Idle)
	} else {
		said = append(said, h.Busy)
	}
	if out.Reload {
		ans.OK, ans.Reload = false, nil
		said = append(said, h.Reload)
	}
	ans.Message = strings.Join(append(nonEmpty(ans.Message), said...), "; ")
	return ans
}

// newlyOff reports whether next switches off a tool or skill that was not
// off.
func newlyOff(prev, next status.Switches) bool {
	for name, on := range next.Tools {
		if was, ok := prev.Tools[name]; !on && (!ok || was) {
			return true
		}
	}
	for name, on := range next.Skills {
		if was, ok := prev.Skills[name]; !on && (!ok || was) {
			return true
		}
	}
	return false
}
