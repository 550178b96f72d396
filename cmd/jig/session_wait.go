package main

import (
	"errors"
	"io/fs"
	"time"

	"github.com/urfave/cli/v2"

	"jig/status"
	"jig/terminal"
)

// idlePoll is how often `session wait` rereads the status file. Polling,
// not fsnotify: a session that dies writes nothing, so only rereading (and
// checking its process) notices it, and one small read every 200 ms costs
// microseconds.
const idlePoll = 200 * time.Millisecond

func sessionWaitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "wait",
		Usage: "wait until a session is idle",
		UsageText: "jig session wait --idle [--session ID | --terminal ID] [--timeout D]\n\n" +
			"Exits 0 once the session is idle, 5 when there is no live session (or it ends while\n" +
			"waiting), 6 when --timeout runs out. Without --session or --terminal it waits for the\n" +
			"session in this terminal.\n\n" +
			"example: jig session wait --idle --terminal %3 --timeout 10m && notify-send 'agent done'",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "idle", Usage: "wait until the session is idle (required)"},
			&cli.StringFlag{Name: "session", Usage: "the session `ID` to wait for"},
			&cli.StringFlag{Name: "terminal", Usage: "wait for the session running in terminal `ID`"},
			&cli.DurationFlag{Name: "timeout", Usage: "give up after `D` (30s, 10m); 0 waits for ever"},
		},
		Action: func(c *cli.Context) error {
			if !c.Bool("idle") {
				return usageError(c, "--idle is required")
			}
			if err := noArgs(c); err != nil {
				return err
			}
			id, term := c.String("session"), c.String("terminal")
			if id != "" && term != "" {
				return usageError(c, "--session and --terminal cannot be combined")
			}
			timeout := c.Duration("timeout")
			if timeout < 0 {
				return usageError(c, "--timeout %s: want a positive duration", timeout)
			}
			if id == "" && term == "" {
				t := terminal.Innermost(terminal.Detect(e.getenv))
				if t == nil {
					return usageError(c, "not in a known terminal: give --session or --terminal")
				}
				term = t.ID
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			what := "session " + id
			find := func() (*status.Status, error) { return liveSession(dir, id, e.liveness()) }
			if term != "" {
				what = "terminal " + term
				find = func() (*status.Status, error) { return dir.ForTerminal(term, e.liveness()) }
			}
			var deadline <-chan time.Time
			if timeout > 0 {
				t := time.NewTimer(timeout)
				defer t.Stop()
				deadline = t.C
			}
			tick := time.NewTicker(idlePoll)
			defer tick.Stop()
			for {
				s, err := find()
				switch {
				case errors.Is(err, status.ErrUnsafeDir):
					return errorf(c, exitStateDir, "%v", err)
				case err != nil:
					return errorf(c, exitFailed, "%v", err)
				case s == nil:
					return errorf(c, exitNoSession, "no live session for %s", what)
				case s.State == status.Idle:
					return nil
				}
				select {
				case <-deadline:
					return errorf(c, exitTimeout, "%s still busy after %s", what, timeout)
				case <-tick.C:
				}
			}
		},
	}
}

// liveSession reads a session's status; nil when it has no file or its
// process is gone.
func liveSession(dir *status.Dir, id string, live status.Liveness) (*status.Status, error) {
	if err := dir.Check(status.SessionsDir); err != nil {
		return nil, err
	}
	s, err := dir.Read(id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !live.Alive(s) {
		return nil, nil
	}
	return s, nil
}
