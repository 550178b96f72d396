// Package notify turns what sessions write into transitions a person can
// act on — a session began to wait for them, went busy, went idle, ended —
// and acts on each: a command of theirs (Exec) or a notification (Notifier).
// `jig session watch --on … --exec … --notify` is its front end.
//
// A transition is a change of a session's state: its attention (kind, tool
// and since: a new wait is a new transition, the same wait written again is
// not), else busy or idle, and its end. A snapshot that changes none of
// these (a new context percent, an output) is no transition, and a state is
// never reported twice in a row for one session.
package notify

import (
	"fmt"
	"path/filepath"
	"strings"

	"jig/agents"
	"jig/render"
	"jig/status"
	"jig/transcript"
)

// Kinds of transition.
const (
	Attention = "attention" // the session began to wait for the person
	Busy      = "busy"
	Idle      = "idle"
	End       = "end" // its file went, or its process
)

// Kinds lists the transitions in the order --on names them.
var Kinds = []string{Attention, Idle, Busy, End}

// ParseOn reads a list such as "attention,idle": every kind named once at
// least, each known; an empty list is every kind.
func ParseOn(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return Kinds, nil
	}
	var on []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if !known(k) {
			return nil, fmt.Errorf("%q: want %s", status.Cut(k), strings.Join(Kinds, ", "))
		}
		on = append(on, k)
	}
	return on, nil
}

func known(kind string) bool {
	for _, k := range Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Event is one transition of one session. Status is the snapshot it came
// from; for End, the last one seen.
type Event struct {
	Kind   string
	Status *status.Status
}

// state is what decides a transition: the kind, and for an attention the
// wait itself.
type state struct {
	kind string
	wait status.Attention
}

func stateOf(s *status.Status) state {
	if a := s.Attention; a != nil {
		return state{kind: Attention, wait: status.Attention{Kind: a.Kind, Tool: a.Tool, Since: a.Since.UTC()}}
	}
	if s.State == status.Busy {
		return state{kind: Busy}
	}
	return state{kind: Idle}
}

// Tracker follows sessions through their snapshots. It is not safe for
// concurrent use: one watch loop feeds it.
type Tracker struct {
	on   map[string]bool
	seen map[string]seen
}

type seen struct {
	state
	last *status.Status
}

// NewTracker reports the kinds named in on (ParseOn's list).
func NewTracker(on []string) *Tracker {
	t := &Tracker{on: map[string]bool{}, seen: map[string]seen{}}
	for _, k := range on {
		t.on[k] = true
	}
	return t
}

// Start takes s as the state its session is in when watching begins: no
// transition.
func (t *Tracker) Start(s *status.Status) {
	t.seen[s.Session] = seen{stateOf(s), s}
}

// Update takes the session's next snapshot and says the transition it
// makes, if any was asked for. A session first seen here (it began after
// watching did) makes the transition into its first state.
func (t *Tracker) Update(s *status.Status) (Event, bool) {
	next := stateOf(s)
	prev, known := t.seen[s.Session]
	t.seen[s.Session] = seen{next, s}
	if known && prev.state == next {
		return Event{}, false
	}
	return t.event(next.kind, s)
}

// Ended says the session is over: its End, once, when it was seen.
func (t *Tracker) Ended(session string) (Event, bool) {
	prev, known := t.seen[session]
	if !known {
		return Event{}, false
	}
	delete(t.seen, session)
	return t.event(End, prev.last)
}

// Watching reports whether a session was seen and has not ended.
func (t *Tracker) Watching(session string) bool {
	_, ok := t.seen[session]
	return ok
}

func (t *Tracker) event(kind string, s *status.Status) (Event, bool) {
	if !t.on[kind] {
		return Event{}, false
	}
	return Event{Kind: kind, Status: s}, true
}

// Project names the session's work for a person: the ticket's key, else
// the name of the git work tree holding its working folder, else the
// folder's name; cleaned, as it reaches terminals and notifications.
func Project(s *status.Status) string {
	if s.Ticket != nil && s.Ticket.Key != "" {
		return render.Clean(s.Ticket.Key)
	}
	if s.CWD == "" {
		return ""
	}
	// RepoFinder looks from a file's folder: a name inside the folder.
	if repo := transcript.NewRepoFinder().Repo(filepath.Join(s.CWD, "-")); repo != nil {
		return render.Clean(filepath.Base(*repo))
	}
	return render.Clean(filepath.Base(s.CWD))
}

// Line is the event in one cleaned line that names the project and what
// waits: "shop: Bash waits for approval", "SHOP-142: Claude Code is idle".
func (ev Event) Line() string {
	s := ev.Status
	who := agents.Label(s.Agent)
	var what string
	switch ev.Kind {
	case Attention:
		what = render.Waits(s.Attention)
	case End:
		what = who + " ended"
	default:
		what = who + " is " + ev.Kind
	}
	if p := Project(s); p != "" {
		return p + ": " + what
	}
	return what
}

// Env is what a command run for the event finds in its environment:
// JIG_SESSION, JIG_TERMINAL, JIG_AGENT, JIG_STATE (the transition),
// JIG_ATTENTION (its kind, or empty), JIG_TOOL (the waiting tool, or
// empty) and JIG_PROJECT (Project). Each value is cleaned: a command that
// echoes one prints it on a terminal.
func (ev Event) Env() []string {
	s := ev.Status
	var term, attention, tool string
	if s.Terminal != nil {
		term = *s.Terminal
	}
	if a := s.Attention; a != nil && ev.Kind == Attention {
		attention, tool = a.Kind, a.Tool
	}
	vars := []string{
		"JIG_SESSION=" + s.Session, "JIG_TERMINAL=" + term, "JIG_AGENT=" + s.Agent, "JIG_STATE=" + ev.Kind,
		"JIG_ATTENTION=" + attention, "JIG_TOOL=" + tool, "JIG_PROJECT=" + Project(s),
	}
	for i, v := range vars {
		vars[i] = render.Clean(v)
	}
	return vars
}
