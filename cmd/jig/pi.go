package main

import (
	"github.com/urfave/cli/v2"

	"jig/exit"
	"jig/pi"
	"jig/pi/bridge"
	"jig/status"
	"jig/transcript"
)

// piCommand groups what jig does with Pi itself; each subcommand lives
// beside the others in its own function.
func piCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "pi",
		Usage: "read Pi's sessions; run the bridge of jig's Pi extension",
		UsageText: "jig pi COMMAND [options] [arguments]\n\n" +
			"example: jig pi sessions --cwd .",
		Subcommands: []*cli.Command{
			piSessionsCommand(e),
			piShowCommand(e),
			piTreeCommand(e),
			piForkCommand(e),
			bridgeCommand(e, "keep a Pi session's status file (started by jig's Pi extension; JSON lines on stdin)",
				"jig pi bridge [--poll D] < events.jsonl\n\nexample: jig pi bridge --poll 2s   # as jig's Pi extension starts it",
				func(dir *status.Dir, host string) bridgeRunner { return bridge.New(dir, e.Now, e.Getenv, host) }),
		},
	}
}

func piSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list Pi's sessions, newest first, from their headers",
		UsageText: "jig pi sessions [--cwd DIR] [--json]\n\n" +
			"example: jig pi sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			infos, err := pi.NewSessions(e.Getenv).List()
			if err != nil {
				return err
			}
			rows := pi.Rows(infos) // over all sessions: a parent may be in another cwd
			if rows, err = inCWD(c, rows, func(r pi.Row) string { return r.CWD }); err != nil {
				return err
			}
			if c.Bool("json") {
				writeIndented(e.Stdout, rows)
			} else if len(rows) > 0 {
				pi.PrintSessions(e.Stdout, rows)
			}
			if len(rows) == 0 {
				return exit.Silent(exit.None)
			}
			return nil
		},
	}
}

// inCWD keeps the sessions started in --cwd's folder (all without it).
func inCWD[T any](c *cli.Context, list []T, cwd func(T) string) ([]T, error) {
	kept, err := transcript.StartedIn(list, c.String("cwd"), cwd)
	if err != nil {
		return nil, usageError(c, "--cwd: %v", err)
	}
	return kept, nil
}

func piShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show what a Pi session's transcript says: model, thinking, totals, outputs, recent calls",
		UsageText: "jig pi show FILE|ID [--leaf ENTRY] [--json]\n\n" +
			"With --leaf, what holds on the branch ending at ENTRY (jig pi tree lists the leaves):\n" +
			"its model, thinking, context, recent calls, and the usage and outputs of its entries.\n\n" +
			"example: jig pi show ~/.pi/agent/sessions/--home-me-src--/2026-04-15T14-06-36-868Z_c8920823.jsonl",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringFlag{Name: "leaf", Usage: "show the branch ending at entry `ENTRY`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := pi.NewSessions(e.Getenv).Find(c.Args().First())
			if err != nil {
				return err
			}
			sh, err := pi.Show(file, c.String("leaf"), e.Getenv("HOME"))
			if err != nil {
				return err
			}
			for _, w := range sh.Warnings {
				e.warnf(c, "warning: %s", w)
			}
			if c.Bool("json") {
				return writeIndented(e.Stdout, sh)
			}
			sh.Print(e.Stdout)
			return nil
		},
	}
}
