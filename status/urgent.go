package status

// Urgent is the session of list a glance at several terminals (a tmux
// window's panes) should show: one that waits for the person, else a busy
// one, else the first; nil when list is empty.
func Urgent(list []*Status) *Status {
	var best *Status
	rank := func(s *Status) int {
		switch {
		case s.Attention != nil:
			return 2
		case s.State == Busy:
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

// ForTerminals is the Urgent one of the live sessions in the terminals
// ids name (ForTerminal's for each); nil when there is none.
func (d *Dir) ForTerminals(ids []string, live Liveness) (*Status, error) {
	found := make([]*Status, 0, len(ids))
	for _, id := range ids {
		s, err := d.ForTerminal(id, live)
		if err != nil {
			return nil, err
		}
		found = append(found, s)
	}
	return Urgent(found), nil
}
