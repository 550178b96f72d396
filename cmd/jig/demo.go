package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"jig/panel"
	"jig/render"
	"jig/status"
	"jig/terminal"
	"jig/transcript"
	"jig/writer"
)

// demoTranscript is a session the project recorded itself: Pi 1.6.0 in its
// end-to-end test (pi/e2e_test.go) against the scripted model of
// internal/scriptedmodel. It reads, writes and edits files in its project,
// runs bash, has bash and a skill switched off by request, then changes
// model.
//
//go:embed demo/session.jsonl
var demoTranscript []byte

// demoModels is what the live agent knows and its transcript does not: the
// display name and context window of each model, as the end-to-end test's
// models.json gave them to Pi.
var demoModels = map[string]struct {
	name   string
	window int64
}{
	"mock-model":    {"Mock Model", 64000},
	"mock-reasoner": {"Mock Reasoner", 128000},
}

// demoTerminal names the demo's terminal when the shell runs in none jig
// knows: the demo then runs as if Herdr had set HC_TERMINAL_ID=jig-demo, so
// the file says, as every session's does, which variable named its terminal.
const demoTerminal = "jig-demo"

// demoPace caps the pause between two entries on a real terminal, so a
// person can watch the line change.
const demoPace = 120 * time.Millisecond

// demoLivePace is the time between two entries of jig demo --live: a
// status bar that reruns jig every second or two shows most states.
const demoLivePace = 1500 * time.Millisecond

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "replay a recorded Pi session and show what a status line and a Work panel show",
		UsageText: "jig demo\n\n" +
			"Replays a Pi 1.6.0 transcript the project recorded, entry by entry, through the same\n" +
			"code a live session uses (transcript reader, engine, status file), finds the session\n" +
			"again as a status line does, and prints its status line at each entry that changes it,\n" +
			"and the Work panel after the first turn and at the end. In a shell that runs in no\n" +
			"terminal jig knows, it runs as if HC_TERMINAL_ID=jig-demo. Uses a temporary state\n" +
			"dir, removed afterwards, unless JIG_STATE_DIR is set; then the session's file stays\n" +
			"there (jig session gc removes it). No agent needed.\n\n" +
			"With --live it keeps the session alive instead, in this terminal and the real state\n" +
			"dir, replaying the transcript in a loop, one entry every --pace, until Ctrl-C (or\n" +
			"SIGTERM, SIGHUP), and then removes its file: watch your status bar, jig panel and\n" +
			"Herdr's views move before wiring Pi.\n\n" +
			"example: jig demo\n" +
			"         jig demo --live    # then, in another pane: jig panel --terminal <this terminal>",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "live", Usage: "keep the session alive in this terminal until Ctrl-C"},
			&cli.DurationFlag{Name: "pace", Value: demoLivePace, Usage: "with --live: the time between two entries"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("pace") && !c.Bool("live") {
				return usageError(c, "--pace goes with --live")
			}
			if c.Duration("pace") < 10*time.Millisecond {
				return usageError(c, "--pace %s: give at least 10ms", c.Duration("pace"))
			}
			root, err := os.MkdirTemp("", "jig-demo-")
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			defer os.RemoveAll(root)
			// Ctrl-C, a closed terminal or a reader that stops reading
			// (jig demo | head) would end the process before the line
			// above runs: the demo stops at the next entry instead.
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
			defer signal.Stop(stop)
			dir := &status.Dir{Root: filepath.Join(root, "state")}
			if c.Bool("live") || e.getenv("JIG_STATE_DIR") != "" {
				if dir, err = e.stateDir(); err != nil {
					return err
				}
				if err := dir.Check(status.SessionsDir, status.TerminalsDir); err != nil {
					return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
				}
			}
			if c.Bool("live") {
				return e.playLive(c, root, dir, stop, c.Duration("pace"))
			}
			return e.playDemo(c, root, dir, stop)
		},
	}
}

// demoEntry is what the demo reads of a transcript line to play the live
// agent's part: what Pi itself would tell jig as the entry is written.
type demoEntry struct {
	Type       string          `json:"type"`
	Timestamp  string          `json:"timestamp"`
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data"`
	Provider   string          `json:"provider"`
	ModelID    string          `json:"modelId"`
	Thinking   string          `json:"thinkingLevel"`
	Message    struct {
		Role       string            `json:"role"`
		StopReason string            `json:"stopReason"`
		ToolName   string            `json:"toolName"`
		IsError    bool              `json:"isError"`
		ToolsAdded []json.RawMessage `json:"toolsAdded"`
		Content    json.RawMessage   `json:"content"`
	} `json:"message"`
}

// playDemo replays the transcript into a project folder under root, one
// entry at a time, and prints what a status line and the Work panel show.
func (e *env) playDemo(c *cli.Context, root string, dir *status.Dir, stop <-chan os.Signal) error {
	project := filepath.Join(root, "project")
	header, lines, err := demoLines(project, e.now())
	if err != nil {
		return errorf(c, exitFailed, "the embedded transcript: %v", err)
	}
	if err := demoProject(project); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	d, as := e.newDemoReplay(root, dir, header.ID)
	if err := d.start(lines[0]); err != nil {
		return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
	}
	preset, opt := e.demoPreset()
	f, ok := stdoutFile(e.stdout)
	pace := ok && isatty.IsTerminal(f.Fd()) // a person watches; a pipe or test does not wait

	fmt.Fprintf(e.stdout, "jig demo: a Pi 1.6.0 session the project recorded, replayed entry by entry\n")
	fmt.Fprintf(e.stdout, "  session     %s in terminal %s%s\n", render.Clean(header.ID), render.Clean(d.term), as)
	fmt.Fprintf(e.stdout, "  transcript  %s\n", render.Clean(d.file))
	fmt.Fprintf(e.stdout, "  status file %s\n\n", render.Clean(dir.SessionPath(header.ID)))
	fmt.Fprintf(e.stdout, "The status line (tmux: jig session for-terminal \"#{pane_id}\" --preset tmux), at each entry that changes it:\n")
	fmt.Fprintf(e.stdout, "  line   time  entry\n")

	start, _ := time.Parse(time.RFC3339Nano, header.Timestamp)
	prevAt, shown, turns := start, "", 0
	var found *status.Status
	var at time.Time
	for i, line := range lines[1:] {
		n := i + 2 // the line's number in the transcript
		var en demoEntry
		if err := json.Unmarshal(line, &en); err != nil {
			return errorf(c, exitFailed, "line %d: %v", n, err)
		}
		if at, err = time.Parse(time.RFC3339Nano, en.Timestamp); err != nil {
			return errorf(c, exitFailed, "line %d: %v", n, err)
		}
		var pause time.Duration
		if pace {
			pause = min(at.Sub(prevAt), demoPace)
		}
		if sig := demoPause(stop, pause); sig != nil {
			return errorf(c, exitFailed, "stopped: %v", sig)
		}
		prevAt = at
		if found, err = d.step(line, en, at); err != nil {
			return errorf(c, stateErrorCode(err, exitFailed), "line %d: %v", n, err)
		}
		var b strings.Builder
		if err := render.Preset(&b, preset, found, opt); err != nil {
			return errorf(c, exitFailed, "line %d: %v", n, err)
		}
		if b.String() != shown {
			shown = b.String()
			fmt.Fprintf(e.stdout, "  %3d  %5.2fs  %-22s %s", n, at.Sub(start).Seconds(), en.describe(), shown)
		}
		if en.Type == "message" && en.Message.Role == "assistant" && d.live.state == status.Idle {
			if turns++; turns == 1 {
				e.printWork(fmt.Sprintf("after the first turn (jig panel --terminal %s)", render.Clean(d.term)), found, at)
			}
		}
	}
	e.printWork("at the end", found, at)
	if e.getenv("JIG_STATE_DIR") != "" {
		fmt.Fprintf(e.stdout, "The status file stays in JIG_STATE_DIR; `jig session gc` removes it.\n")
	}
	return nil
}

// newDemoReplay is the replay of session id, its transcript under root,
// in the shell's terminal, else as if HC_TERMINAL_ID named one (as says
// so).
func (e *env) newDemoReplay(root string, dir *status.Dir, id string) (d *demoReplay, as string) {
	d = &demoReplay{e: e, dir: dir, id: id, term: demoTerminal, file: filepath.Join(root, id+".jsonl"),
		repos: transcript.NewRepoFinder()}
	if t := terminal.Innermost(terminal.Detect(e.getenv)); t != nil {
		d.term = t.ID
		return d, ""
	}
	in := *e
	in.getenv = func(k string) string {
		if k == terminal.HerdrCore {
			return demoTerminal
		}
		return e.getenv(k)
	}
	d.e = &in
	return d, fmt.Sprintf(" (as if %s=%s)", terminal.HerdrCore, demoTerminal)
}

// demoPreset is the status line's preset: ansi on a terminal, else plain.
func (e *env) demoPreset() (string, render.PresetOptions) {
	preset := render.PresetPlain
	if e.stdoutTTY {
		preset = render.PresetANSI
	}
	return preset, render.PresetOptions{NoColor: e.getenv("NO_COLOR") != ""}
}

// playLive keeps the session alive in the real state dir: the transcript
// replayed in a loop, one entry every pace, each entry timed as it is
// written, until a signal; then its file is removed.
func (e *env) playLive(c *cli.Context, root string, dir *status.Dir, stop <-chan os.Signal, pace time.Duration) error {
	project := filepath.Join(root, "project")
	if err := demoProject(project); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	header, lines, err := demoLines(project, e.now())
	if err != nil {
		return errorf(c, exitFailed, "the embedded transcript: %v", err)
	}
	d, as := e.newDemoReplay(root, dir, header.ID)
	preset, opt := e.demoPreset()
	fmt.Fprintf(e.stdout, "jig demo --live: a Pi 1.6.0 session the project recorded, replayed in a loop until Ctrl-C\n")
	fmt.Fprintf(e.stdout, "  session     %s in terminal %s%s\n", render.Clean(header.ID), render.Clean(d.term), as)
	fmt.Fprintf(e.stdout, "  status file %s\n", render.Clean(dir.SessionPath(header.ID)))
	fmt.Fprintf(e.stdout, "  watch it    in this terminal's status bar, or: jig panel --terminal %s\n\n", render.Clean(d.term))
	fmt.Fprintf(e.stdout, "  round  line  entry                  status line\n")
	for round := 1; ; round++ {
		if round > 1 {
			if _, lines, err = demoLines(project, e.now()); err != nil {
				return errorf(c, exitFailed, "the embedded transcript: %v", err)
			}
		}
		if err := d.start(lines[0]); err != nil {
			d.end()
			return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
		}
		shown := ""
		for i, line := range lines[1:] {
			n := i + 2
			if round > 1 || i > 0 {
				if sig := demoPause(stop, pace); sig != nil {
					if err := d.end(); err != nil {
						return errorf(c, stateErrorCode(err, exitFailed), "stopped (%v), but the status file stays: %v", sig, err)
					}
					fmt.Fprintf(e.stdout, "\nStopped (%v); the session's status file is removed.\n", sig)
					return nil
				}
			}
			var en demoEntry
			if err := json.Unmarshal(line, &en); err != nil {
				d.end()
				return errorf(c, exitFailed, "line %d: %v", n, err)
			}
			recorded, err := time.Parse(time.RFC3339Nano, en.Timestamp)
			if err != nil {
				d.end()
				return errorf(c, exitFailed, "line %d: %v", n, err)
			}
			// The entry happens now, so the panel's ages stay true.
			now := e.now()
			line = shiftTimes(line, now.Sub(recorded).Truncate(time.Millisecond))
			found, err := d.step(line, en, now)
			if err != nil {
				d.end()
				return errorf(c, stateErrorCode(err, exitFailed), "line %d: %v", n, err)
			}
			var b strings.Builder
			if err := render.Preset(&b, preset, found, opt); err != nil {
				d.end()
				return errorf(c, exitFailed, "line %d: %v", n, err)
			}
			if b.String() != shown {
				shown = b.String()
				fmt.Fprintf(e.stdout, "  %5d  %4d  %-22s %s", round, n, en.describe(), shown)
			}
		}
	}
}

// demoPause waits d (not at all when d is 0) and returns nil, or returns
// the signal that came first.
func demoPause(stop <-chan os.Signal, d time.Duration) os.Signal {
	select {
	case sig := <-stop:
		return sig
	default:
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case sig := <-stop:
		return sig
	case <-t.C:
		return nil
	}
}

// demoReplay is the session being replayed: its transcript and reader, as
// the bridge keeps them in memory, and what the live agent has said.
type demoReplay struct {
	e        *env
	dir      *status.Dir
	id, term string
	file     string
	reader   *transcript.Reader
	repos    *transcript.RepoFinder
	live     demoLive
	afresh   bool // the next step builds on no previous status
}

// start begins the replay afresh at the transcript's header: a status file
// left by an earlier run is removed, and one of the last round is replaced
// at the next step rather than merged over (removing it would blink the
// session out of every status bar between rounds).
func (d *demoReplay) start(header []byte) error {
	if d.reader == nil {
		if err := d.dir.Remove(d.id); err != nil {
			return err
		}
	}
	d.afresh = true
	if err := os.WriteFile(d.file, append(header[:len(header):len(header)], '\n'), 0o600); err != nil {
		return err
	}
	d.reader = transcript.NewReader(d.file)
	d.reader.Home = d.e.getenv("HOME")
	d.live = demoLive{tools: -1}
	return nil
}

// end removes the session's status file, as a session that ends does.
func (d *demoReplay) end() error { return d.dir.Remove(d.id) }

// step is one entry, as Pi and the bridge handle it: Pi appends the line;
// the bridge reads what was appended, lays what Pi says live over it and
// writes the status file. The session is then found by its terminal, as a
// status bar finds it.
func (d *demoReplay) step(line []byte, en demoEntry, at time.Time) (*status.Status, error) {
	if err := appendLine(d.file, line); err != nil {
		return nil, err
	}
	if err := d.reader.Update(); err != nil {
		return nil, err
	}
	d.live.see(en)
	patch, err := d.live.patch()
	if err != nil {
		return nil, err
	}
	derived := d.reader.Derive(d.repos.Repo)
	w := d.e.writer(d.dir)
	w.Now = func() time.Time { return at }
	if _, err := w.Write(writer.Update{Session: d.id, PID: os.Getpid(), Agent: status.AgentPi, AgentDir: d.e.agentDir(),
		Live: patch, KeepSaid: true, Transcript: derivedSource{derived}, Base: func(prev *status.Status) *status.Status {
			if d.afresh {
				return nil
			}
			return prev
		}}); err != nil {
		return nil, err
	}
	d.afresh = false
	found, err := d.dir.ForTerminal(d.term, d.e.liveness())
	if err == nil && found == nil {
		err = fmt.Errorf("the session is not found in terminal %s", d.term)
	}
	return found, err
}

// printWork prints the Work panel of s, titled.
func (e *env) printWork(when string, s *status.Status, now time.Time) {
	fmt.Fprintf(e.stdout, "\nThe Work panel %s:\n", when)
	for _, l := range panel.Lines(s, now) {
		if l != "" {
			l = "  " + render.Clean(l)
		}
		fmt.Fprintln(e.stdout, l)
	}
	fmt.Fprintln(e.stdout)
}

// demoLive is what the live agent has said so far: busy or idle, the
// model's name and window, its tools, the switches requests made.
type demoLive struct {
	state    string
	model    *status.Model
	window   int64
	tools    int // how many tools Pi has; -1 until its system prompt lists them
	switches json.RawMessage
	off      int // tools switched off
}

// see updates what the live agent knows after an entry.
func (l *demoLive) see(en demoEntry) {
	switch en.Type {
	case "model_change":
		m := demoModels[en.ModelID]
		l.model = &status.Model{Provider: en.Provider, ID: en.ModelID, Name: m.name}
		l.window = m.window
	case "custom":
		if en.CustomType == "jig-session.switches" {
			var sw status.Switches
			if json.Unmarshal(en.Data, &sw) == nil {
				l.switches, l.off = en.Data, 0
				for _, on := range sw.Tools {
					if !on {
						l.off++
					}
				}
			}
		}
	case "message":
		switch m := en.Message; m.Role {
		case "system":
			if len(m.ToolsAdded) > 0 {
				l.tools = len(m.ToolsAdded)
			}
		case "user":
			l.state = status.Busy
		case "assistant":
			l.state = status.Busy
			if m.StopReason != "toolUse" {
				l.state = status.Idle
			}
		}
	}
}

// patch is the live fields as the bridge passes them to the engine.
func (l *demoLive) patch() ([]byte, error) {
	p := map[string]any{"state": status.Idle}
	if l.state != "" {
		p["state"] = l.state
	}
	if l.model != nil {
		p["model"] = l.model
		p["context"] = map[string]any{"window": l.window}
	}
	if l.tools >= 0 {
		p["tools"] = status.Tools{Active: l.tools - l.off, Total: l.tools}
	}
	if l.switches != nil {
		p["switches"] = l.switches
	}
	return json.Marshal(p)
}

// describe names an entry in a few words, never with an argument value.
func (en demoEntry) describe() string {
	switch en.Type {
	case "model_change":
		return "model " + en.ModelID
	case "thinking_level_change":
		return "thinking " + en.Thinking
	case "custom":
		return "switches (request)"
	case "message":
		m := en.Message
		switch m.Role {
		case "assistant":
			var parts []struct{ Type, Name string }
			json.Unmarshal(m.Content, &parts)
			var calls []string
			for _, p := range parts {
				if p.Type == "toolCall" {
					calls = append(calls, p.Name)
				}
			}
			if len(calls) > 0 {
				return "assistant calls " + strings.Join(calls, ", ")
			}
			return "assistant replies"
		case "toolResult":
			if m.IsError {
				return m.ToolName + " fails"
			}
			return m.ToolName + " done"
		case "system":
			return "system prompt"
		case "user":
			return "user prompt"
		}
	}
	return en.Type
}

// The transcript's times: each entry's ISO timestamp and a message's unix
// milliseconds.
var (
	isoTime = regexp.MustCompile(`"timestamp":"([0-9T:.Z-]+)"`)
	msTime  = regexp.MustCompile(`"timestamp":([0-9]{13})\b`)
)

// demoLines is the embedded transcript made to have happened in project,
// starting at now: the header's cwd (and every mention of it) becomes
// project, and every time moves by the same amount.
func demoLines(project string, now time.Time) (*transcript.Header, [][]byte, error) {
	lines := bytes.Split(bytes.TrimSpace(demoTranscript), []byte("\n"))
	var header transcript.Header
	if err := json.Unmarshal(lines[0], &header); err != nil || header.CWD == "" || header.ID == "" {
		return nil, nil, fmt.Errorf("no session header: %v", err)
	}
	start, err := time.Parse(time.RFC3339Nano, header.Timestamp)
	if err != nil {
		return nil, nil, err
	}
	shift := now.Sub(start).Truncate(time.Millisecond)
	oldCWD, _ := json.Marshal(header.CWD)
	newCWD, _ := json.Marshal(project)
	oldCWD, newCWD = bytes.Trim(oldCWD, `"`), bytes.Trim(newCWD, `"`)
	for i, l := range lines {
		lines[i] = shiftTimes(bytes.ReplaceAll(l, oldCWD, newCWD), shift)
	}
	header.CWD, header.Timestamp = project, start.Add(shift).UTC().Format(time.RFC3339Nano)
	return &header, lines, nil
}

// shiftTimes moves every time in a transcript line by shift.
func shiftTimes(l []byte, shift time.Duration) []byte {
	l = isoTime.ReplaceAllFunc(l, func(m []byte) []byte {
		t, err := time.Parse(time.RFC3339Nano, string(isoTime.FindSubmatch(m)[1]))
		if err != nil {
			return m
		}
		return []byte(`"timestamp":"` + t.Add(shift).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
	})
	return msTime.ReplaceAllFunc(l, func(m []byte) []byte {
		ms, _ := strconv.ParseInt(string(msTime.FindSubmatch(m)[1]), 10, 64)
		return []byte(`"timestamp":` + strconv.FormatInt(ms+shift.Milliseconds(), 10))
	})
}

// demoProject is the folder the session worked in, as it was before: a git
// work tree (so its outputs have a repo) holding the notes Pi reads first.
func demoProject(project string) error {
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(project, "notes.txt"), []byte("first line alpha-old-text\n"), 0o600)
}

// appendLine adds one line to the transcript, as Pi does after each entry.
func appendLine(file string, line []byte) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line[:len(line):len(line)], '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

type derivedSource struct{ d *transcript.Derived }

func (s derivedSource) Derive([]byte) (*transcript.Derived, []byte, error) { return s.d, nil, nil }
