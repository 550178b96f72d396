package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"jig/status"
	"jig/terminal"
)

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
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			t := status.Target{Session: id, Terminal: term, Here: terminal.Detect(e.Getenv), Live: true}
			err = dir.WaitIdle(t, e.Liveness(), timeout)
			if errors.Is(err, status.ErrNoTerminal) {
				return usageError(c, "%v; give --session or --terminal", err)
			}
			return err
		},
	}
}
