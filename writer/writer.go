// Package writer is every agent's read–merge–write of one session's status
// file. An agent's adapter (the Pi bridge, `jig session write`, Claude's
// hooks and statusLine) says only what its agent knows at one event, as an
// Update; Write lays it over the file under the session's lock
// (engine.Build), with what the environment knows (host, terminals, cwd,
// agent, agentDir), the transcript read on from its saved cursor and the
// active ticket, validates the result once and writes it only when it
// changed. docs/architecture.md says how a new agent adds an adapter.
package writer

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"time"

	"jig/engine"
	"jig/status"
	"jig/terminal"
	"jig/transcript"
)

// Writer is every agent's read–merge–write of one session's status file.
type Writer struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string // the agent's environment (terminals, HOME, …)
	Host   string

	repos *transcript.RepoFinder // the ticket folders' repos, cached for the writer's life
}

// A Writer serves one goroutine at a time (an adapter handles one event at
// a time); writers of the same session in other goroutines or processes
// are serialised by the session's lock.

// repoFinder is the writer's repo cache, made at first use (a Writer made
// without New has none).
func (w *Writer) repoFinder() *transcript.RepoFinder {
	if w.repos == nil {
		w.repos = transcript.NewRepoFinder()
	}
	return w.repos
}

// New makes a writer into dir.
func New(dir *status.Dir, now func() time.Time, getenv func(string) string, host string) *Writer {
	return &Writer{Dir: dir, Now: now, Getenv: getenv, Host: host, repos: transcript.NewRepoFinder()}
}

// Update is what one adapter knows at one event.
type Update struct {
	Session     string // the agent's session id (required)
	PID         int    // the agent's process
	Agent       string // status.AgentPi, status.AgentClaude, …
	AgentDir    string // the agent's own folder ("" = unknown)
	SessionFile string // the agent's transcript, absolute, when known
	CWD         string // the agent's working folder when it said one ("" = os.Getwd)

	// Transcript, when set, is read on from the session's saved cursor under
	// the lock; the writer saves the new cursor (no values in it) after the
	// file is written.
	Transcript Source
	Live       []byte // JSON fields the agent says live, laid over the file (engine.Build); may be nil
	// Outputs are files the agent saw written, joined to the others path by
	// path, their action winning (as outputs in Live are).
	Outputs []status.Output

	// KeepSaid: host, terminals, agent and agentDir come from the
	// environment only where the file and Live have none (`jig session
	// write`, whose stdin may say any field). Otherwise the adapter runs in
	// its agent's own environment, and what it knows is laid over at every
	// write.
	KeepSaid bool

	// Base, when set, picks what to build on from the file as it is (nil
	// when there is none): the bridge builds on its own memory when the file
	// is an earlier process's.
	Base func(file *status.Status) *status.Status

	// Ticket, when set, lays the active ticket over the status (ticket.go).
	Ticket *Ticket

	// Edit, when set, makes the adapter's last changes under the lock,
	// after the environment, ticket and transcript are laid in and before
	// validation. prev is what was built on (nil for a new file). It must not
	// block; its error refuses the write.
	Edit func(s, prev *status.Status) error
}

// Source is one agent's incremental transcript reader.
type Source interface {
	// Derive reads on from cursor (nil: from the start; a stale or foreign
	// cursor is dropped by the source) and returns the fields, the new cursor
	// (nil: keep the old one) and an error. fs.ErrNotExist = not written yet:
	// no fields, no error for the write. No fields and no error from a
	// cursor that held: nothing new since it, so nothing to lay over the
	// file, which was built from what the cursor read (a cursor is saved
	// only after its file is written, and given only with a file).
	Derive(cursor []byte) (d *transcript.Derived, next []byte, err error)
}

// Resident is a Source that keeps its place itself, in memory for the
// adapter's life (the bridge's reader): the writer neither loads nor saves
// a cursor for it, and its Derive is given nil.
type Resident interface {
	Source
	Resident()
}

// Refused is an input the writer refused whole; nothing was changed.
type Refused struct {
	Err error
	// Transcript: the transcript was refused (not a session, not a regular
	// file), not the fields the agent said.
	Transcript bool
}

func (r *Refused) Error() string { return r.Err.Error() }
func (r *Refused) Unwrap() error { return r.Err }

// Is makes a refused input bad input (exit 4), whatever its cause.
func (r *Refused) Is(target error) bool { return target == status.ErrBadInput }

// Write is one read–merge–write under the session's lock: engine.Build over
// the file, the environment (host, terminals, cwd, agent, agentDir), the
// ticket overlay, the transcript, Edit, one Normalize+Validate, one encode,
// written only when it changed. A refused input is a *Refused (exit 4 in the
// CLI). Write never waits on anything but the session's lock while it holds
// it: an adapter that must wait for its agent's transcript waits before.
func (w *Writer) Write(u Update) (*status.Status, error) {
	if u.Session == "" {
		return nil, &Refused{Err: errors.New("no session id")}
	}
	var out *status.Status
	var next []byte
	var refused *Refused
	_, err := w.Dir.Update(u.Session, w.Now(), func(file *status.Status) (*status.Status, error) {
		var cursor []byte
		if _, resident := u.Transcript.(Resident); u.Transcript != nil && !resident {
			var err error
			if cursor, err = w.loadCursor(u.Session); err != nil {
				return nil, err
			}
			if file == nil {
				cursor = nil // a cursor says what its file holds: without one, read from the start
			}
		}
		s, moved, err := w.build(u, file, cursor)
		if err != nil {
			if errors.As(err, &refused) {
				return nil, refused
			}
			return nil, err
		}
		out, next = s, moved
		return s, nil
	})
	var invalid *status.Invalid
	switch {
	case refused != nil:
		return nil, refused
	case errors.As(err, &invalid):
		return nil, &Refused{Err: invalid.Err}
	case err != nil:
		return nil, err
	}
	if next != nil {
		w.saveCursor(u.Session, next)
	}
	return out, nil
}

// Build is the status Write would lay over prev, without the file, the
// lock or a cursor (a Transcript reads from its own place), neither
// normalized nor validated: what an adapter shows before it writes.
func (w *Writer) Build(u Update, prev *status.Status) (*status.Status, error) {
	s, _, err := w.build(u, prev, nil)
	return s, err
}

// Check is Valid(Build(u, prev)): whether what u says would make a file,
// before there is one to write (the bridge before its session's hello).
func (w *Writer) Check(u Update, prev *status.Status) error {
	s, err := w.Build(u, prev)
	if err != nil {
		return err
	}
	return Valid(s)
}

// Valid normalizes s and validates it: a *Refused when no reader could take
// it.
func Valid(s *status.Status) error {
	s.Normalize() // bounds every field, so the file stays within what readers take
	if err := s.Validate(); err != nil {
		return &Refused{Err: err}
	}
	return nil
}

// build lays u over file (or what u.Base picks) from cursor: the status and
// the transcript's new cursor (nil: unchanged). Its *Refused errors are the
// input's.
func (w *Writer) build(u Update, file *status.Status, cursor []byte) (*status.Status, []byte, error) {
	prev := file
	if u.Base != nil {
		prev = u.Base(file)
	}
	var derived *transcript.Derived
	var next []byte
	if u.Transcript != nil {
		d, moved, err := u.Transcript.Derive(cursor)
		switch {
		case errors.Is(err, fs.ErrNotExist): // not written yet
		case err != nil:
			return nil, nil, &Refused{Err: err, Transcript: true}
		default:
			derived, next = d, moved
		}
		if _, resident := u.Transcript.(Resident); resident {
			next = nil
		}
	}
	s, err := engine.Build(prev, derived, u.Live)
	if err != nil {
		return nil, nil, &Refused{Err: err}
	}
	if len(u.Outputs) > 0 {
		s.Outputs = engine.MergeOutputs(u.Outputs, s.Outputs)
	}
	s.Session, s.PID = u.Session, u.PID
	w.fillEnvironment(s, u, derived)
	if u.Ticket != nil {
		w.overlayTicket(s, u)
	}
	if u.Edit != nil {
		if err := u.Edit(s, prev); err != nil {
			return nil, nil, &Refused{Err: err}
		}
	}
	s.StateSince = stateSince(prev, s.State, w.Now())
	return s, next, nil
}

// stateSince is when the session entered state: prev's time while the
// state stays, now when it changes (or nobody said when).
func stateSince(prev *status.Status, state string, now time.Time) *time.Time {
	if prev != nil && prev.State == state && prev.StateSince != nil {
		t := *prev.StateSince
		return &t
	}
	now = now.UTC()
	return &now
}

// fillEnvironment sets what the environment knows: the only place a
// status's terminals come from the environment.
func (w *Writer) fillEnvironment(s *status.Status, u Update, derived *transcript.Derived) {
	if u.CWD != "" {
		s.CWD = u.CWD
	}
	if s.CWD == "" {
		s.CWD, _ = os.Getwd()
	}
	switch {
	case u.SessionFile != "" && (!u.KeepSaid || s.SessionFile == nil):
		f := u.SessionFile
		s.SessionFile = &f
	case s.SessionFile == nil && derived != nil && derived.File != "":
		f := derived.File
		s.SessionFile = &f
	}
	if u.KeepSaid {
		s.Host = cmp.Or(s.Host, w.Host)
		s.Agent = cmp.Or(s.Agent, u.Agent)
		s.AgentDir = cmp.Or(s.AgentDir, u.AgentDir)
		if len(s.Terminals) == 0 {
			s.Terminals = terminal.Detect(w.Getenv)
		}
		if s.Terminal == nil {
			setTerminal(s)
		}
		return
	}
	s.Schema, s.Host, s.Agent = status.Schema, w.Host, u.Agent
	s.AgentDir = cmp.Or(u.AgentDir, s.AgentDir)
	s.Terminals = terminal.Detect(w.Getenv)
	setTerminal(s)
}

// setTerminal names the innermost of s's terminals as its terminal.
func setTerminal(s *status.Status) {
	s.Terminal, s.TerminalFrom = nil, nil
	if t := terminal.Innermost(s.Terminals); t != nil {
		s.Terminal, s.TerminalFrom = &t.ID, &t.From
	}
}

// End removes the session's status file and transcript cursor (the session
// is over).
func (w *Writer) End(session string) error {
	if err := w.Dir.Check(status.CursorsDir); err != nil {
		return err
	}
	if err := w.Dir.Remove(session); err != nil {
		return err
	}
	if err := os.Remove(w.cursorPath(session)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
