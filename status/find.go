package status

import "time"

// Liveness decides whether the session behind a status file still runs.
type Liveness struct {
	Host string // this machine's name; a status from another host is not live here
	// Instances are the terminal host instances the reader runs in, by
	// the variable that names their terminals (TMUX_PANE: the socket of
	// the tmux server around it): an id it is given is of those.
	Instances map[string]string
	ids       map[int]string
}

// InTerminal reports whether s runs in terminal id as the reader means it.
// Ids are numbered per host instance (two tmux servers each have a %0), so
// where both the reader and s's entry know the entry's instance, they must
// agree; where either does not (an older file, a reader outside the host,
// a host that names none), the id alone decides, as it always did.
func (l Liveness) InTerminal(s *Status, id string) bool {
	return s.inTerminal(id, l.Instances)
}

func (s *Status) inTerminal(id string, instances map[string]string) bool {
	listed := false
	for _, t := range s.Terminals {
		if t.ID != id {
			continue
		}
		if mine := instances[t.From]; mine == "" || t.Instance == "" || t.Instance == mine {
			return true
		}
		listed = true // in another instance's terminal of that id
	}
	return !listed && s.Terminal != nil && *s.Terminal == id
}

// Memo is l remembering each process's identity for one pass over many
// sessions (gc, list): the sessions of one process cost one /proc read.
// Not for a long-lived reader: a pid's process may change meanwhile.
func (l Liveness) Memo() Liveness {
	l.ids = map[int]string{}
	return l
}

// Local reports whether s was written on this host (or names no host).
func (l Liveness) Local(s *Status) bool {
	return s.Host == "" || l.Host == "" || s.Host == l.Host
}

// Alive reports whether s belongs to a process of this host that still runs
// and is the same process that started the session (not a reused pid).
func (l Liveness) Alive(s *Status) bool {
	if !l.Local(s) {
		return false
	}
	if l.ids != nil && s.PIDStart != "" && s.PID > 0 {
		id, ok := l.ids[s.PID]
		if !ok {
			id = ProcessIdentity(s.PID)
			l.ids[s.PID] = id
		}
		if id != "" {
			return id == s.PIDStart
		}
	}
	return ProcessAlive(s.PID, s.StartedAt, s.PIDStart)
}

// ProcessAlive reports whether pid runs and is the process that wrote the
// session. With the writer's identity of the process (pidStart), that is an
// exact match, whatever the wall clock did since. Without it (an older file,
// or outside Linux), pid must have started no later than startedAt, with a
// little slack for clock rounding: a process that started after the session
// did has taken over a dead session's pid.
func ProcessAlive(pid int, startedAt time.Time, identity string) bool {
	if pid <= 0 {
		return false
	}
	if identity != "" {
		if now := ProcessIdentity(pid); now != "" {
			return now == identity
		}
	}
	start, ok, running := processStart(pid)
	if !running {
		return false
	}
	if ok && !startedAt.IsZero() && start.After(startedAt.Add(2*time.Second)) {
		return false
	}
	return true
}
