package status

import "slices"

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
// ids name (ForTerminal's for each); nil when there is none. With keys,
// each is decoded only as far as its head and the members keys name
// (DecodeMembers; state and attention always, Urgent reads them): a status
// line's preset shows a few fields of a 24 KB file.
func (d *Dir) ForTerminals(ids []string, live Liveness, keys ...string) (*Status, error) {
	if keys != nil {
		keys = append(slices.Clip(keys), "state", "attention") // a copy: the caller's stays as it is
	}
	found := make([]*Status, 0, len(ids))
	for _, id := range ids {
		var s *Status
		var err error
		if keys == nil {
			s, err = d.ForTerminal(id, live)
		} else {
			s, err = d.forTerminalMembers(id, live, keys)
		}
		if err != nil {
			return nil, err
		}
		found = append(found, s)
	}
	return Urgent(found), nil
}

// forTerminalMembers is ForTerminal's session with only its head and the
// members keys name decoded.
func (d *Dir) forTerminalMembers(id string, live Liveness, keys []string) (*Status, error) {
	found, err := d.forTerminal(id, live, false, keys)
	if len(found) == 0 {
		return nil, err
	}
	return found[0].s, nil
}
