package status

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// Liveness decides whether the session behind a status file still runs.
type Liveness struct {
	Host string // this machine's name; a status from another host is not live here
}

// Alive reports whether s belongs to a process of this host that still runs
// and is the same process that started the session (not a reused pid).
func (l Liveness) Alive(s *Status) bool {
	if s.Host != "" && l.Host != "" && s.Host != l.Host {
		return false
	}
	return ProcessAlive(s.PID, s.StartedAt)
}

// ProcessAlive reports whether pid runs and started no later than startedAt
// (with a little slack for clock rounding): a process that started after the
// session did has taken over a dead session's pid.
func ProcessAlive(pid int, startedAt time.Time) bool {
	if pid <= 0 {
		return false
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

// ForTerminal finds the live session whose terminals contain id; when
// several do, the newest updatedAt wins. It returns nil, nil when none does.
// It looks through the terminal index when the writer keeps one, and reads
// every status file otherwise.
func (d *Dir) ForTerminal(id string, live Liveness) (*Status, error) {
	if err := d.Check(SessionsDir, TerminalsDir); err != nil {
		return nil, err
	}
	var candidates []*Status
	des, err := os.ReadDir(d.Path(TerminalsDir, SafeName(id)))
	switch {
	case err == nil:
		for _, de := range des {
			s, err := readStatus(d.Path(SessionsDir, de.Name()+".json"))
			if err == nil {
				candidates = append(candidates, s)
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(d.Path(TerminalsDir)); err == nil {
			return nil, nil // the index is kept and names no session here
		}
		entries, err := d.List()
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Status != nil {
				candidates = append(candidates, e.Status)
			}
		}
	default:
		return nil, err
	}
	var best *Status
	for _, s := range candidates {
		if !s.HasTerminal(id) || !live.Alive(s) {
			continue
		}
		if best == nil || s.UpdatedAt.After(best.UpdatedAt) {
			best = s
		}
	}
	return best, nil
}
