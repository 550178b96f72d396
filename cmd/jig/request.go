package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/request"
	"jig/status"
	"jig/terminal"
)

// defaultWait is how long a bare --wait waits for the answer; the session
// looks for requests every 2 s.
const defaultWait = 10 * time.Second

// waitPoll is how often --wait reads the status file.
const waitPoll = 50 * time.Millisecond

func requestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "request",
		Usage: "ask a live session to switch a tool or a skill, or to reload when idle",
		UsageText: "jig request COMMAND [options] [arguments]\n\n" +
			"example: jig request tool bash off --session 0190a --wait",
		Subcommands: []*cli.Command{
			requestSwitchCommand(e, "tool"),
			requestSwitchCommand(e, "skill"),
			requestReloadCommand(e),
			requestTakeCommand(e),
			requestHandleCommand(e),
			requestShowCommand(e),
		},
	}
}

// targetFlags name the session a request is for.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "session", Usage: "the session `ID`"},
		&cli.StringFlag{Name: "terminal", Usage: "the session running in terminal `ID` (default: this terminal)"},
	}
}

func sendFlags() []cli.Flag {
	return append(targetFlags(), &optionalValueFlag{&cli.GenericFlag{
		Name:  "wait",
		Usage: "wait for the session's answer, print it, exit 0 when ok, 1 when not (--wait=DURATION, default 10s)",
		Value: &waitValue{},
	}})
}

func requestSwitchCommand(e *env, kind string) *cli.Command {
	return &cli.Command{
		Name:  kind,
		Usage: "turn " + kind + "s on or off for one session",
		UsageText: fmt.Sprintf("jig request %[1]s NAME on|off [--session ID | --terminal ID] [--wait[=DURATION]]\n"+
			"jig request %[1]s NAME=on|off [NAME=on|off ...] [...]\n\nexample: jig request %[1]s bash off --wait", kind),
		Flags: sendFlags(),
		Action: func(c *cli.Context) error {
			switches, err := parseSwitches(c.Args().Slice())
			if err != nil {
				return usageError(c, "%v", err)
			}
			req := request.New(e.now())
			if kind == "tool" {
				req.Tools = switches
			} else {
				req.Skills = switches
			}
			return e.sendRequest(c, req)
		},
	}
}

func requestReloadCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "reload",
		Usage: "ask a session to reload once it is idle",
		UsageText: "jig request reload [--session ID | --terminal ID] [--wait[=DURATION]]\n\n" +
			"example: jig request reload --terminal %3 --wait=30s",
		Flags: sendFlags(),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			req := request.New(e.now())
			req.Reload = true
			return e.sendRequest(c, req)
		},
	}
}

// parseSwitches reads `NAME on|off` or `NAME=on|off ...`.
func parseSwitches(args []string) (map[string]bool, error) {
	if len(args) == 0 {
		return nil, errors.New("want NAME on|off, or NAME=on|off pairs")
	}
	for _, a := range args {
		if _, err := time.ParseDuration(a); err == nil {
			return nil, fmt.Errorf("%q: a duration goes with its flag: --wait=%s", a, a)
		}
	}
	if len(args) == 2 && !strings.Contains(args[0], "=") && !strings.Contains(args[1], "=") {
		args = []string{args[0] + "=" + args[1]}
	}
	m := map[string]bool{}
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want NAME on|off, or NAME=on|off pairs", a)
		}
		if err := request.CheckName(name); err != nil {
			return nil, fmt.Errorf("%q: %v", a, err)
		}
		switch val {
		case "on":
			m[name] = true
		case "off":
			m[name] = false
		default:
			return nil, fmt.Errorf("%q: want on or off, got %q", a, val)
		}
	}
	return m, nil
}

// sendRequest writes req for the target session and, with --wait, waits for
// its answer. Without --wait it prints the request's id.
func (e *env) sendRequest(c *cli.Context, req *request.Request) error {
	wait := c.Generic("wait").(*waitValue)
	dir, err := e.stateDir()
	if err != nil {
		return err
	}
	target, err := e.liveTarget(c, dir)
	if err != nil {
		return err
	}
	if _, err := request.Send(dir, target.Session, req); err != nil {
		return fileError(c, err)
	}
	if !wait.set {
		fmt.Fprintln(e.stdout, req.ID)
		return nil
	}
	return e.awaitAnswer(c, dir, target.Session, req.ID, wait.d)
}

// awaitAnswer polls the session's status file until its lastRequest answers
// id, the session ends, or d runs out. It uses timers, not the clock, so a
// fixed test clock does not stop it.
func (e *env) awaitAnswer(c *cli.Context, dir *status.Dir, session, id string, d time.Duration) error {
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	live := e.liveness()
	for {
		s, err := dir.Read(session)
		switch {
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return fileError(c, err)
		case err != nil || !live.Alive(s):
			return errorf(c, exitNoSession, "session %s ended before it answered request %s", session, id)
		case request.Answered(s.LastRequest, id):
			fmt.Fprintln(e.stdout, render.Clean(oneLine(s.LastRequest.Message)))
			if !s.LastRequest.OK {
				return silent(exitNone)
			}
			return nil
		}
		select {
		case <-timeout.C:
			return errorf(c, exitTimeout, "no answer to request %s from session %s within %s", id, session, d)
		case <-tick.C:
		}
	}
}

// liveTarget finds the live session the request is for: --session, else
// --terminal, else the session running in this terminal. Unlike the read
// commands it looks only at the innermost terminal: an outer id (the WezTerm
// pane around tmux) is shared by every tmux pane in it, and a switch must
// not land on an agent in a neighbouring pane.
func (e *env) liveTarget(c *cli.Context, dir *status.Dir) (*status.Status, error) {
	session, term := c.String("session"), c.String("terminal")
	if session != "" && term != "" {
		return nil, usageError(c, "give --session or --terminal, not both")
	}
	live := e.liveness()
	if session != "" {
		if err := dir.Check(status.SessionsDir); err != nil {
			return nil, errorf(c, exitStateDir, "%v", err)
		}
		s, err := dir.Read(session)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fileError(c, err)
		}
		if err != nil || !live.Alive(s) {
			return nil, errorf(c, exitNoSession, "no live session %s", session)
		}
		return s, nil
	}
	if term == "" {
		t := terminal.Innermost(terminal.Detect(e.getenv))
		if t == nil {
			return nil, errorf(c, exitNoSession, "not in a terminal jig knows; give --session or --terminal")
		}
		term = t.ID
	}
	s, err := dir.ForTerminal(term, live)
	if err != nil {
		return nil, fileError(c, err)
	}
	if s == nil {
		return nil, errorf(c, exitNoSession, "no live session in terminal %s", term)
	}
	return s, nil
}

// fileError maps a state-dir failure to its exit code.
func fileError(c *cli.Context, err error) error {
	return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
}

func requestTakeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "take",
		Usage: "take the request waiting for a session (session side, for hooks)",
		UsageText: "jig request take --session ID\n\n" +
			"Prints the request as JSON and removes it; exit 1 and no output when none waits.\n" +
			"A bad request is removed, answered ok:false in the status file, and named on stderr (exit 4).\n" +
			"The hook answers a good one: echo '{\"lastRequest\": {...}, \"switches\": {...}}' | jig session write --session ID\n\n" +
			"example: jig request take --session 0190a > request.json",
		Flags: []cli.Flag{&cli.StringFlag{Name: "session", Usage: "the session `ID` (required)"}},
		Action: func(c *cli.Context) error {
			session := c.String("session")
			if err := needSession(c, session); err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			req, answer, err := request.Take(dir, session, e.now())
			var bad *request.BadError
			switch {
			case errors.As(err, &bad):
				if answer != nil {
					if werr := e.writeAnswer(dir, session, answer); werr != nil {
						return errorf(c, exitFailed, "%v; answering it: %v", bad, werr)
					}
				}
				return errorf(c, exitBadInput, "%v", oneLine(bad.Error()))
			case err != nil:
				return fileError(c, err)
			}
			return e.printRequest(c, req)
		},
	}
}

// printRequest prints a request as JSON; none is exit 1, silently.
func (e *env) printRequest(c *cli.Context, req *request.Request) error {
	if req == nil {
		return silent(exitNone)
	}
	data, err := request.Encode(req)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	_, err = e.stdout.Write(data)
	return err
}

// writeAnswer puts a bad request's answer into the session's status file,
// through the status writer; a session without a status file gets none.
func (e *env) writeAnswer(dir *status.Dir, session string, a *status.Answer) error {
	_, err := dir.Update(session, e.now(), func(s *status.Status) (*status.Status, error) {
		if s == nil {
			return nil, errNoStatus
		}
		s.LastRequest = a
		return s, nil
	})
	if errors.Is(err, errNoStatus) {
		return nil
	}
	return err
}

// errNoStatus stops an update of a session that has no status file.
var errNoStatus = errors.New("no status file")

func requestHandleCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "handle",
		Usage: "take, decide and answer the waiting request (session side, for hosts that are not Go)",
		UsageText: "jig request handle --session ID < available.json\n\n" +
			"stdin says what the session has: {\"tools\": [...], \"active\": [...], \"hidden\": [...], \"skills\": [...]}.\n" +
			"Takes the waiting request, decides it with the switches kept in the status file, writes lastRequest\n" +
			"and switches there, and prints what to apply: {\"switches\", \"active\", \"skillsOff\", \"reload\", \"lastRequest\"}.\n" +
			"Exit 1 and no output when none waits; a bad request is answered ok:false (exit 4).\n\n" +
			`example: echo '{"tools":["read","bash"],"active":["read","bash"],"hidden":[],"skills":[]}' | jig request handle --session 0190a`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "session", Usage: "the session `ID` (required)"}},
		Action: func(c *cli.Context) error {
			session := c.String("session")
			if err := needSession(c, session); err != nil {
				return err
			}
			have, err := readAvailable(e.stdin)
			if err != nil {
				return errorf(c, exitBadInput, "stdin: %v", err)
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			// The status file holds the kept switches and takes the answer:
			// without it, the request stays waiting rather than be lost. The
			// session's lock is held from reading the switches to writing
			// the answer.
			var out *request.Outcome
			var bad *request.BadError
			var takeErr error
			_, err = dir.Update(session, e.now(), func(s *status.Status) (*status.Status, error) {
				if s == nil {
					return nil, errNoStatus
				}
				out, takeErr = request.Handle(dir, session, have, s.Switches, e.now())
				if takeErr != nil && !errors.As(takeErr, &bad) {
					return nil, takeErr
				}
				if out != nil {
					s.Switches, s.LastRequest = out.Switches, &out.Answer
				}
				return s, nil
			})
			switch {
			case errors.Is(err, errNoStatus):
				return errorf(c, exitNoSession, "session %s has no status file; write it first", session)
			case err != nil:
				return fileError(c, err)
			case out == nil && bad == nil:
				return silent(exitNone)
			}
			if bad != nil {
				return errorf(c, exitBadInput, "%v", oneLine(bad.Error()))
			}
			data, err := json.Marshal(out)
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			fmt.Fprintf(e.stdout, "%s\n", data)
			return nil
		},
	}
}

// readAvailable reads what the session has from stdin: one JSON object.
func readAvailable(r io.Reader) (request.Available, error) {
	var have request.Available
	data, err := io.ReadAll(io.LimitReader(r, status.MaxFileSize+1))
	if err != nil {
		return have, err
	}
	if len(data) > status.MaxFileSize {
		return have, fmt.Errorf("larger than %d bytes", status.MaxFileSize)
	}
	if err := json.Unmarshal(data, &have); err != nil {
		return have, fmt.Errorf("want {\"tools\": [...], \"active\": [...], \"hidden\": [...], \"skills\": [...]}: %v", err)
	}
	return have, nil
}

func requestShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "print the request waiting for a session, as JSON, without taking it",
		UsageText: "jig request show [--session ID | --terminal ID]\n\nexit 1 and no output when none waits\n\n" +
			"example: jig request show --terminal %3",
		Flags: targetFlags(),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			session := c.String("session")
			if session == "" || c.String("terminal") != "" {
				s, err := e.liveTarget(c, dir)
				if err != nil {
					return err
				}
				session = s.Session
			}
			req, err := request.Pending(dir, session)
			var bad *request.BadError
			switch {
			case errors.As(err, &bad):
				return errorf(c, exitBadInput, "%v", oneLine(bad.Error()))
			case err != nil:
				return fileError(c, err)
			}
			return e.printRequest(c, req)
		},
	}
}

// oneLine keeps a message on one line, for a status bar or a log.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// waitValue is --wait[=DURATION]: a bare --wait waits defaultWait.
type waitValue struct {
	d   time.Duration
	set bool
}

func (w *waitValue) String() string {
	if w == nil || !w.set {
		return ""
	}
	return w.d.String()
}

func (w *waitValue) Set(v string) error {
	switch v {
	case "true":
		w.d, w.set = defaultWait, true
		return nil
	case "false":
		w.set = false
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a duration such as 10s or 500ms, got %q", v)
	}
	w.d, w.set = d, true
	return nil
}

// IsBoolFlag lets the flag parser take a bare --wait, and --wait=5s.
func (w *waitValue) IsBoolFlag() bool { return true }

// optionalValueFlag is a flag whose value is optional: it never takes the
// next argument as its value (write --wait=5s, not --wait 5s).
type optionalValueFlag struct{ *cli.GenericFlag }

func (optionalValueFlag) TakesValue() bool { return false }

// String is the help line, built from this flag so it shows no placeholder.
func (f optionalValueFlag) String() string { return cli.FlagStringer(f) }
