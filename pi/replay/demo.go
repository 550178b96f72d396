// Package replay replays the Pi session the project recorded (Recorded)
// through the same code a live session uses: a real bridge (pi/bridge) fed
// the lines jig's Pi extension sends at each of Pi's events, the writer,
// the status file, and the session found again by its terminal, as a
// status bar finds it. Show prints what it finds at each entry, for
// `jig demo`.
package replay

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"sync"
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
	live    *liveDemo // NewLiveDemos's: what its rounds do beside the recording
}

// liveDemo is what a live demo's session does that the recording does not,
// so a board beside it has something to show: its bridge takes the
// requests a reader files (every poll), and with asks its bash call waits
// for the person (◐) until it ends.
type liveDemo struct {
	poll time.Duration
	asks bool
}

// requestPoll is how often a live demo's bridge looks for a request, as the
// Pi extension's does.
var requestPoll = 2 * time.Second

// NewDemo prepares the replay into dir, its transcript and project in root
// (a private folder the caller removes), in the terminal getenv names.
func NewDemo(dir *status.Dir, root string, getenv func(string) string, host string, now func() time.Time) (*Demo, error) {
	return demoIn(dir, root, "project", getenv, host, now)
}

// demoIn is NewDemo with the project's folder named project.
func demoIn(dir *status.Dir, root, project string, getenv func(string) string, host string, now func() time.Time) (*Demo, error) {
	header, _, err := Lines(root, now())
	if err != nil {
		return nil, fmt.Errorf("the recorded transcript: %v", err)
	}
	d := &Demo{Dir: dir, Session: header.ID, File: filepath.Join(root, header.ID+".jsonl"), Terminal: Terminal,
		project: filepath.Join(root, project), getenv: getenv, host: host, now: now}
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

// projects name the live demo's agents' projects, one each.
var projects = []string{"project", "shop", "api", "docs", "infra", "web", "mobile", "data"}

// MaxAgents is how many agents a live demo runs at most.
var MaxAgents = len(projects)

// NewLiveDemos prepares n replays of the recorded session to run at once
// (LoopAll), each a session of its own: a fresh random id (no two share a
// prefix, so a few characters name one), its own project, and its own
// terminal: the first the shell's, the others jig-demo-2, jig-demo-3, … as
// if Herdr had named them. Each takes the requests a reader files; the
// second (the first when alone) waits for the person at each bash call.
func NewLiveDemos(dir *status.Dir, root string, getenv func(string) string, host string, now func() time.Time, n int) ([]*Demo, error) {
	if n < 1 || n > MaxAgents {
		return nil, fmt.Errorf("%d agents: give 1 to %d", n, MaxAgents)
	}
	var demos []*Demo
	firsts := mrand.Perm(16) // each id's first hex digit its own
	for k := range n {
		env := getenv
		if k > 0 {
			own := fmt.Sprintf("%s-%d", Terminal, k+1)
			env = func(v string) string {
				switch v {
				case terminal.HerdrCore:
					return own
				case terminal.Herdr1, terminal.Tmux, "TMUX", terminal.Kitty, terminal.WezTerm, "TERM_PROGRAM":
					return ""
				}
				return getenv(v)
			}
		}
		d, err := demoIn(dir, root, projects[k], env, host, now)
		if err != nil {
			return nil, err
		}
		d.Session = freshID(d.Session, firsts[k])
		d.live = &liveDemo{poll: requestPoll, asks: k == min(1, n-1)}
		demos = append(demos, d)
	}
	return demos, nil
}

// freshID is a random id of the recorded id's shape (a UUID's), beginning
// with hex digit first: another session's, which shares no prefix with the
// others a live demo makes.
func freshID(id string, first int) string {
	var b [16]byte
	rand.Read(b[:])
	h := fmt.Sprintf("%x", first) + hex.EncodeToString(b[:])[1:]
	if len(id) != 36 {
		return h
	}
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// LoopAll runs every demo's Loop at once until pause, called before each
// entry of each, stops one with an error: then all stop, and their files go.
// each gets the demo's index with every step, one step at a time.
func LoopAll(demos []*Demo, pause func() error, each func(agent int, st Step) error) error {
	var (
		once  sync.Once
		first error
		done  = make(chan struct{})
		mu    sync.Mutex
		wg    sync.WaitGroup
	)
	stopAll := func(err error) {
		once.Do(func() { first = err; close(done) })
	}
	for k, d := range demos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := d.Loop(func() error {
				select {
				case <-done:
					return first
				default:
				}
				err := pause()
				if err != nil {
					stopAll(err)
				}
				return err
			}, func(st Step) error {
				mu.Lock()
				defer mu.Unlock()
				return each(k, st)
			})
			stopAll(err)
		}()
	}
	wg.Wait()
	return first
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
	p, err := startPi(d.Dir, d.getenv, d.host, d.File, lines[0], d.project, d.Session, start, nil)
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
		header, lines, err := Lines(d.project, d.now())
		if err != nil {
			return errors.Join(fmt.Errorf("the recorded transcript: %v", err), end(last))
		}
		id := roundID(d.Session, round)
		lines[0] = bytes.Replace(lines[0], []byte(header.ID), []byte(id), 1)
		p, err := startPi(d.Dir, d.getenv, d.host, filepath.Join(filepath.Dir(d.File), id+".jsonl"), lines[0], d.project,
			id, d.now(), d.live)
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
			for ; p.hold > 0; p.hold-- { // a wait for the person, held a while
				if err := pause(); err != nil {
					return err
				}
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
