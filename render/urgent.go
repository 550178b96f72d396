package render

import "jig/status"

// Urgent is the session of list a glance at several terminals (a tmux
// window's panes) should show: one that waits for the person, else a busy
// one, else the first; nil when list is empty.
func Urgent(list []*status.Status) *status.Status {
	var best *status.Status
	rank := func(s *status.Status) int {
		switch {
		case s.Attention != nil:
			return 2
		case s.State == status.Busy:
			return 1
		}
		return 0
	}
	for _, s := range list {
		if s != nil && (best == nil || rank(s) > rank(best)) {
			best = s
		}
	}
	return best
}
