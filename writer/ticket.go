package writer

import (
	"bytes"
	"cmp"
	"encoding/json"

	"jig/status"
	"jig/ticket"
)

// Ticket is an adapter's part in the ticket overlay (docs/ticket.md): the
// active ticket, its workflow and its folder's files are worked out at
// every write from the configuration, a key said live, the working folder's
// `jig ticket use` choice and its git branch. A ticket or workflow in
// Update.Live is the agent's live word too (session write's stdin): the
// ticket's key wins, the folder filling the title and url it leaves out; the
// workflow wins as given.
type Ticket struct {
	// Said is a ticket the agent names live outside Live (Pi's jig:ticket
	// event); nil: none.
	Said *status.Ticket
	// TakenBack is a key the agent said live before and has since taken
	// back. A key said live holds until a writer says another, so one
	// another writer of the session said (a hook) holds; this one does not.
	TakenBack string
	// Found is a reading the adapter made before the lock, for Said's key
	// in the working folder FoundIn; the writer reads again under the lock
	// when the key or the folder turn out otherwise.
	Found   *ticket.Found
	FoundIn string
	// Warn is told each problem a reading under the lock met.
	Warn func(problem error)
}

// overlayTicket lays the active ticket over s.
func (w *Writer) overlayTicket(s *status.Status, u Update) {
	t := u.Ticket
	said, saidWorkflow := t.Said, (*status.Workflow)(nil)
	if live := liveTicket(u.Live); live.ticket || live.workflow {
		if live.ticket && s.Ticket != nil {
			said = s.Ticket
		}
		if live.workflow {
			saidWorkflow = s.Workflow
		}
	}
	if held := s.Ticket; said == nil && held != nil && held.From == ticket.FromEvent && held.Key != t.TakenBack {
		said = &status.Ticket{Key: held.Key} // its title and url read again, never stale
	}
	var event string
	if said != nil {
		event = said.Key
	}
	f := t.Found
	if f == nil || t.FoundIn != s.CWD || !readFor(f, event) {
		f = ticket.Resolve(w.Getenv, u.AgentDir, ticket.Sources{Event: event, State: w.Dir, CWD: s.CWD}, w.repoFinder().Repo)
		if t.Warn != nil {
			for _, p := range f.Problems {
				t.Warn(p)
			}
		}
	}
	f.Apply(s)
	if said != nil {
		n := *said
		if s.Ticket != nil && s.Ticket.Key == n.Key {
			n.Title = cmp.Or(n.Title, s.Ticket.Title)
			n.URL = cmp.Or(n.URL, s.Ticket.URL)
		}
		n.From = ticket.FromEvent
		s.Ticket = &n
	}
	if saidWorkflow != nil {
		s.Workflow = saidWorkflow
	}
}

// readFor reports whether f was read with event as the live key.
func readFor(f *ticket.Found, event string) bool {
	if ticket.ValidKey(event) {
		return f.Key.From == ticket.FromEvent && f.Key.Key == event
	}
	return f.Key.From != ticket.FromEvent
}

// liveSaid is which of the ticket fields the live JSON names, not null.
type liveSaid struct{ ticket, workflow bool }

func liveTicket(live []byte) liveSaid {
	var said liveSaid
	if !bytes.Contains(live, []byte(`"ticket"`)) && !bytes.Contains(live, []byte(`"workflow"`)) {
		return said // the common case, without decoding
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(live, &top) != nil {
		return said
	}
	said.ticket = len(top["ticket"]) > 0 && string(top["ticket"]) != "null"
	said.workflow = len(top["workflow"]) > 0 && string(top["workflow"]) != "null"
	return said
}
