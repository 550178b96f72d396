// Package replay replays the Pi session the project recorded (Recorded)
// through the same code a live session uses: a real bridge (pi/bridge) fed
// the lines jig's Pi extension sends at each of Pi's events, the writer,
// the status file, and the session found again by its terminal, as a
// status bar finds it. Show prints what it finds at each entry, for
// `jig demo`.
package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"jig/status"
	"jig/terminal"
)

// Terminal names the demo's terminal when the shell runs in none jig knows:
// the demo then runs as if Herdr had set HC_TERMINAL_ID=jig-demo, so the
// file says, as every session's does, which variable named its terminal.
const Terminal = "jig-demo"

// Demo is the recorded session replayed in a folder of its own.
type Demo struct {
	Dir      *status.Dir
	Session  string // the recorded session's id
	File     string // its transcript, as the replay writes it
	Terminal string // the terminal it runs in: the shell's, else Terminal
	// As says " (as if HC_TERMINAL_ID=jig-demo)" when the shell runs in no
	// terminal jig knows, else "".
	As string

	project string
	getenv  func(string) string
	host    string
	now     func() time.Time
}

// NewDemo prepares the replay into dir, its transcript and project in root
// (a private folder the caller removes), in the terminal getenv names.
func NewDemo(dir *status.Dir, root string, getenv func(string) string, host string, now func() time.Time) (*Demo, error) {
	header, _, err := Lines(root, now())
	if err != nil {
		return nil, fmt.Errorf("the recorded transcript: %v", err)
	}
	d := &Demo{Dir: dir, Session: header.ID, File: filepath.Join(root, header.ID+".jsonl"), Terminal: Terminal,
		project: filepath.Join(root, "project"), getenv: getenv, host: host, now: now}
	if t := terminal.Innermost(terminal.Detect(getenv)); t != nil {
		d.Terminal = t.ID
	} else {
		d.getenv = func(k string) string {
			if k == terminal.HerdrCore {
				return Terminal
			}
			return getenv(k)
		}
		d.As = fmt.Sprintf(" (as if %s=%s)", terminal.HerdrCore, Terminal)
	}
	return d, makeProject(d.project)
}

// Step is one entry replayed.
type Step struct {
	Round int
	Line  int           // the entry's line in the transcript
	Since time.Duration // how long into the session it came, as recorded
	At    time.Time     // when it happened in the replay
	Entry string        // what it is, in a few words (no value)
	// Idle: a reply ended a turn.
	Idle bool
	// Status is the session as a status bar finds it by its terminal.
	Status *status.Status
}

// Once replays the session once, entry by entry. Before each, pause is
// given the time between the two entries as recorded and may stop the
// replay with an error. The status file stays (JIG_STATE_DIR).
func (d *Demo) Once(pause func(gap time.Duration) error, each func(Step) error) error {
	header, lines, err := Lines(d.project, d.now())
	if err != nil {
		return fmt.Errorf("the recorded transcript: %v", err)
	}
	if err := d.Dir.Remove(d.Session); err != nil { // an earlier run's
		return err
	}
	start, _ := time.Parse(time.RFC3339Nano, header.Timestamp)
	p, err := startPi(d.Dir, d.getenv, d.host, d.File, lines[0], d.project, d.Session, start)
	if err != nil {
		return err
	}
	prevAt := start
	err = d.play(p, lines, 1, func(en *entry, at time.Time) error {
		gap := at.Sub(prevAt)
		prevAt = at
		return pause(gap)
	}, func(line []byte, at time.Time) ([]byte, time.Time) { return line, at }, each)
	return errors.Join(err, p.end(true))
}

// Loop replays the session round after round, each entry written as it
// happens (now), until pause, called before each entry, stops it with an
// error; then the session ends and its file goes. Each round is a session
// of its own (roundID), started before the last one ends, so a status bar
// always finds one in the terminal.
func (d *Demo) Loop(pause func() error, each func(Step) error) error {
	var last *pi
	for round := 1; ; round++ {
		if last != nil {
			if err := pause(); err != nil {
				return errors.Join(err, last.end(false))
			}
		}
		_, lines, err := Lines(d.project, d.now())
		if err != nil {
			return errors.Join(fmt.Errorf("the recorded transcript: %v", err), end(last))
		}
		id := roundID(d.Session, round)
		lines[0] = bytes.Replace(lines[0], []byte(d.Session), []byte(id), 1)
		p, err := startPi(d.Dir, d.getenv, d.host, filepath.Join(filepath.Dir(d.File), id+".jsonl"), lines[0], d.project,
			id, d.now())
		if err := errors.Join(err, end(last)); err != nil {
			return errors.Join(err, end(p))
		}
		last = p
		first := true
		err = d.play(p, lines, round, func(*entry, time.Time) error {
			if first {
				first = false
				return nil
			}
			return pause()
		}, func(line []byte, recorded time.Time) ([]byte, time.Time) {
			now := d.now() // the entry happens now, so the panel's ages stay true
			return shiftTimes(line, now.Sub(recorded).Truncate(time.Millisecond)), now
		}, each)
		if err != nil {
			return errors.Join(err, p.end(false))
		}
	}
}

// end ends p's session, if there is one: its file goes.
func end(p *pi) error {
	if p == nil {
		return nil
	}
	return p.end(false)
}

// roundID is the session id of a round of Loop: the recorded one's, then
// the same with the round in its last four hex digits.
func roundID(id string, round int) string {
	if round == 1 || len(id) < 4 {
		return id
	}
	return id[:len(id)-4] + fmt.Sprintf("%04x", round%0x10000)
}

// play replays lines after the header into p: before each entry, pause;
// then the entry moved to when it happens (move), then each.
func (d *Demo) play(p *pi, lines [][]byte, round int, pause func(*entry, time.Time) error,
	move func([]byte, time.Time) ([]byte, time.Time), each func(Step) error) error {
	var header entry
	json.Unmarshal(lines[0], &header)
	start, _ := time.Parse(time.RFC3339Nano, header.Timestamp)
	for i, line := range lines[1:] {
		n := i + 2 // the line's number in the transcript
		var en entry
		if err := json.Unmarshal(line, &en); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		recorded, err := time.Parse(time.RFC3339Nano, en.Timestamp)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		if err := pause(&en, recorded); err != nil {
			return err
		}
		line, at := move(line, recorded)
		if err := p.step(line, &en, at); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		found, err := d.Dir.ForTerminal(d.Terminal, status.Liveness{Host: d.host})
		if err == nil && found == nil {
			err = fmt.Errorf("the session is not found in terminal %s", d.Terminal)
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		idle := en.Type == "message" && en.Message.Role == "assistant" && !p.busy
		if err := each(Step{Round: round, Line: n, Since: recorded.Sub(start), At: at, Entry: en.describe(), Idle: idle,
			Status: found}); err != nil {
			return err
		}
	}
	return nil
}
