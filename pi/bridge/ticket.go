package bridge

import (
	"errors"
	"os"
	"time"

	"jig/pi"
	"jig/status"
	"jig/ticket"
	"jig/writer"
)

// TicketEvery is how often the bridge re-reads the ticket folder (at its
// next poll after that), so a note written by hand shows without any Pi
// event.
const TicketEvery = 10 * time.Second

// TicketEvent is another extension's word on the active ticket, from a
// jig:ticket event on Pi's bus; an empty key takes the word back.
type TicketEvent struct {
	Key string `json:"key"`
}

// ticketState is what the bridge knows of the active ticket between reads.
type ticketState struct {
	event  string        // the key of the last jig:ticket event
	told   string        // the last event key the bridge put in the file
	found  *ticket.Found // the last reading; nil: read at the next write
	cwd    string        // the working folder it was read for
	readAt time.Time
	said   string // the problems last told Pi's UI, so they are told once
}

// takeTicket is a jig:ticket event: it wins over the other sources at once.
func (b *Bridge) takeTicket(e TicketEvent) {
	b.ticket.event = e.Key
	b.ticket.found = nil
}

// readTicket reads the active ticket when the last reading is older than
// TicketEvery or was for another working folder. write calls it before
// taking the file's lock: the reading touches the ticket folder, the
// configuration and .git/HEAD.
func (b *Bridge) readTicket() {
	cwd := b.cwd()
	if !b.ticketDue() && cwd == b.ticket.cwd {
		return
	}
	agentDir, _ := pi.AgentDir(b.Getenv)
	src := ticket.Sources{Event: b.ticket.event, State: b.Dir, CWD: cwd}
	f := ticket.Resolve(b.Getenv, agentDir, src, b.repos.Repo)
	b.ticket.found, b.ticket.cwd, b.ticket.readAt = f, cwd, b.Now()
	said := errors.Join(f.Problems...)
	if said == nil {
		b.ticket.said = ""
		return
	}
	if msg := said.Error(); msg != b.ticket.said {
		b.ticket.said = msg
		b.send(Notice{Type: "notice", Message: noticeText("ticket: " + msg)}) // mu is held: not b.notice
	}
}

// RefreshTicket rewrites the file when the ticket folder is due to be read
// again; the poll calls it.
func (b *Bridge) RefreshTicket() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session == "" || !b.ticketDue() {
		return nil
	}
	return b.write()
}

// ticketDue: never read, or read TicketEvery ago.
func (b *Bridge) ticketDue() bool {
	return b.ticket.found == nil || b.Now().Sub(b.ticket.readAt) >= TicketEvery
}

// ticketWord is the bridge's part in the writer's ticket overlay: the key
// of the last jig:ticket event and the last reading. A ticket another
// writer of the session said live (a hook's `jig session write`: from
// "event", a key the bridge did not put there) holds while no jig:ticket
// event says otherwise, as it does for session write. Before the first
// reading the file's ticket is left as it is.
func (b *Bridge) ticketWord() *writer.Ticket {
	if b.ticket.found == nil {
		return nil
	}
	t := &writer.Ticket{Found: b.ticket.found, FoundIn: b.ticket.cwd}
	if b.ticket.event != "" {
		t.Said = &status.Ticket{Key: b.ticket.event}
		b.ticket.told = b.ticket.event
	} else {
		t.TakenBack = b.ticket.told
	}
	return t
}

// cwd is Pi's working folder: what Pi said live, else the bridge's own
// (it runs where Pi does).
func (b *Bridge) cwd() string {
	if b.liveCWD != "" {
		return b.liveCWD
	}
	cwd, _ := os.Getwd()
	return cwd
}
