package main

import (
	"context"
	"os"

	"github.com/urfave/cli/v2"

	"jig/board"
	"jig/panel"
	"jig/render"
	"jig/ticket"
)

func boardCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "board",
		Usage: "every live agent session, here and on other machines, attention first: jump to one, steer it",
		UsageText: "jig board [--host HOST ...] [--once | --json | --jq EXPR] [--jump ID]\n\n" +
			"On a terminal a full-screen view (in colour unless NO_COLOR) that redraws when a session's\n" +
			"file changes: ↑/↓ j/k move, n the next that waits, Enter jumps to its pane, t turns a tool\n" +
			"off or on, r asks a reload when idle, / filters, ? the keys, q quits. --once prints the rows\n" +
			"and exits; --json (and --jq) print them as JSON. Other machines are asked over\n" +
			"${JIG_SSH:-ssh} with `jig session list --json --slim` (an older jig there without --slim:\n" +
			"`--json` alone); a host slower than 2 s shows as such.\n\n" +
			"example: jig board --host devbox --once\n" +
			"example: jig board --jump 7f3c    # the one session whose id starts with 7f3c",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "host", Usage: "ask `HOST` over ssh too (again for more; default: board.hosts in jig's configuration)"},
			&cli.DurationFlag{Name: "host-timeout", Value: board.HostTimeout, Usage: "how long a host may take to answer before it shows as down"},
			&cli.BoolFlag{Name: "once", Usage: "print the rows once and exit"},
			&cli.StringFlag{Name: "jump", Usage: "focus the pane of session `ID` (or the start of it) and exit"},
		}, docFlags("the rows")[:2]...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{})
			if err != nil {
				return err
			}
			b, err := e.board(c)
			if err != nil {
				return err
			}
			if c.IsSet("jump") {
				return b.Jump(context.Background(), c.String("jump"))
			}
			asJSON := c.Bool("json") || c.IsSet("jq") || !e.StdoutTTY && !c.Bool("once")
			if out, ok := stdoutFile(e.Stdout); ok && e.StdoutTTY && !asJSON && !c.Bool("once") {
				in, _ := e.Stdin.(*os.File)
				l := &board.Live{Board: b, Steer: board.Steer{Dir: b.Dir, SSH: b.SSH, Now: e.Now}, Now: e.Now, Colour: e.Getenv("NO_COLOR") == ""}
				return l.Run(context.Background(), panel.Terminal{In: in, Out: out})
			}
			return b.Print(context.Background(), e.Stdout, out, asJSON, columns(e.Getenv, e.Stdout), e.Now())
		},
	}
}

// board is the board the flags and the configuration describe.
func (e *env) board(c *cli.Context) (*board.Board, error) {
	dir, err := e.StateDir()
	if err != nil {
		return nil, err
	}
	host, _ := e.Hostname()
	return board.New(dir, e.Liveness(), host, c.StringSlice("host"), func() []string {
		cfg := loadConfig(e.Getenv)
		for _, err := range cfg.Skipped {
			e.warnf(c, "%v", err) // the other hosts are asked
		}
		return cfg.BoardHosts
	}, board.SSH{Command: e.Getenv("JIG_SSH"), Timeout: c.Duration("host-timeout")})
}

// loadConfig is jig's configuration as read from this folder.
func loadConfig(getenv func(string) string) *ticket.Config {
	cwd, _ := os.Getwd()
	return ticket.LoadConfig(getenv, cwd, agentDir(getenv))
}
