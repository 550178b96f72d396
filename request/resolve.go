package request

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"jig/status"
)

// Available is what the session has, as its host reports it.
type Available struct {
	Tools  []string `json:"tools"`  // every tool registered, in the host's order
	Active []string `json:"active"` // the tools active now, before this request
	Hidden []string `json:"hidden"` // tools a request may not turn on
	Skills []string `json:"skills"` // every skill the session knows
}

// Outcome is what a request does to the session. The host applies it as it
// is: Active to the tool list (pi.setActiveTools), SkillsOff out of the
// prompt, Reload once idle, Switches kept in the session and written to the
// status file with Answer as lastRequest.
type Outcome struct {
	Switches  status.Switches `json:"switches"`
	Active    []string        `json:"active"`
	SkillsOff []string        `json:"skillsOff"`
	Reload    bool            `json:"reload"`
	Answer    status.Answer   `json:"lastRequest"`
}

// Resolve decides what req does, given what the session has and the
// switches it keeps from earlier requests. A name the session does not have,
// or a hidden tool to turn on, is left out and named in the answer, which is
// then not ok; the rest still applies.
func Resolve(req *Request, have Available, current status.Switches, now time.Time) Outcome {
	next := status.Switches{Tools: copyMap(current.Tools), Skills: copyMap(current.Skills)}
	var done, refused []string
	for _, name := range sortedKeys(req.Tools) {
		on := req.Tools[name]
		switch {
		case !slices.Contains(have.Tools, name):
			refused = append(refused, "no tool named "+name)
		case on && slices.Contains(have.Hidden, name):
			refused = append(refused, "tool "+name+" is hidden and cannot be turned on")
		case full(next.Tools, name):
			refused = append(refused, fmt.Sprintf("tool %s: a session keeps at most %d switched tools", name, status.MaxSwitches))
		default:
			next.Tools[name] = on
			done = append(done, "tool "+name+" "+onOff(on))
		}
	}
	for _, name := range sortedKeys(req.Skills) {
		on := req.Skills[name]
		if !slices.Contains(have.Skills, name) {
			refused = append(refused, "no skill named "+name)
			continue
		}
		if full(next.Skills, name) {
			refused = append(refused, fmt.Sprintf("skill %s: a session keeps at most %d switched skills", name, status.MaxSwitches))
			continue
		}
		next.Skills[name] = on
		done = append(done, "skill "+name+" "+onOff(on))
	}
	if req.Reload {
		done = append(done, "reload when idle")
	}
	msg := strings.Join(done, ", ")
	if len(refused) > 0 {
		msg = strings.Join(append(nonEmpty(msg), refused...), "; ")
	}
	if msg == "" {
		msg = "nothing to change"
	}
	active, skillsOff := Apply(have, next)
	ans := status.Answer{ID: req.ID, OK: len(refused) == 0, Message: msg, At: now.UTC(), Covers: req.Covers}
	if req.Reload {
		t := true
		ans.Reload = &t
	}
	return Outcome{Switches: next, Active: active, SkillsOff: skillsOff, Reload: req.Reload, Answer: ans}
}

// Apply lays switches over the session's active tools and skills: the tools
// to set active, in the host's order, and the skills to leave out, sorted. A
// hidden tool is never turned on; a switch naming what the session no
// longer has is kept but does nothing.
func Apply(have Available, sw status.Switches) (active, skillsOff []string) {
	on := map[string]bool{}
	for _, t := range have.Active {
		on[t] = true
	}
	for name, v := range sw.Tools {
		if v && slices.Contains(have.Hidden, name) {
			continue
		}
		on[name] = v
	}
	active = []string{}
	for _, t := range have.Tools {
		if on[t] {
			active = append(active, t)
			delete(on, t)
		}
	}
	// Active tools the host did not list among all tools stay as they were.
	for _, t := range have.Active {
		if on[t] {
			active = append(active, t)
			delete(on, t)
		}
	}
	skillsOff = []string{}
	for name, v := range sw.Skills {
		if !v && slices.Contains(have.Skills, name) {
			skillsOff = append(skillsOff, name)
		}
	}
	sort.Strings(skillsOff)
	return active, skillsOff
}

// full reports whether switches hold as many names as a status file
// keeps and name is not among them: a switch more would make a file no
// reader takes, so it is refused in the answer instead.
func full(switches map[string]bool, name string) bool {
	_, ok := switches[name]
	return !ok && len(switches) >= status.MaxSwitches
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func copyMap(m map[string]bool) map[string]bool {
	c := make(map[string]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Handle is Take and Resolve in one step, for a session that polls:
//   - nil, nil when no request waits;
//   - out, nil for a good request, decided;
//   - out, *BadError for a bad request with an id: out changes nothing
//     (current switches, Active as they stand) and out.Answer is ok:false;
//   - nil, *BadError for a bad request without an id: nothing to answer;
//   - nil, err when the folder cannot be used.
//
// The host applies out whatever it holds, and writes out.Switches and
// out.Answer (as lastRequest) into its status file.
func Handle(dir *status.Dir, session string, have Available, current status.Switches, now time.Time) (*Outcome, error) {
	req, answer, err := Take(dir, session, now)
	switch {
	case answer != nil:
		active, skillsOff := Apply(have, current)
		sw := status.Switches{Tools: copyMap(current.Tools), Skills: copyMap(current.Skills)}
		return &Outcome{Switches: sw, Active: active, SkillsOff: skillsOff, Answer: *answer}, err
	case err != nil || req == nil:
		return nil, err
	}
	out := Resolve(req, have, current, now)
	return &out, nil
}
