package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"jig/panel"
	"jig/panel/follow"
)

// panelCommand is the Work view in a terminal: the Herdr 1 plugin's "work"
// pane, or a tmux/WezTerm split next to an agent.
func panelCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "panel",
		Usage: "show one session live in this terminal: model, context, cost, outputs, recent calls",
		UsageText: "jig panel [--terminal ID] [--interval 2s] [--once]\n\n" +
			"Without --terminal, inside tmux or Herdr 1, it follows the focused pane beside it (and ignores its own).\n" +
			"q quits. examples: jig panel --terminal %3    jig panel --terminal t7 --once",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "terminal", Usage: "follow the session in terminal `ID` (t7, %3, w1:p2)"},
			&cli.DurationFlag{Name: "interval", Value: 2 * time.Second, Usage: "how often to read the session"},
			&cli.BoolFlag{Name: "once", Usage: "print the view once and exit (also when stdout is not a terminal)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError(c, "takes no arguments; use --terminal ID")
			}
			if c.Duration("interval") < 100*time.Millisecond {
				return usageError(c, "--interval %s: want at least 100ms", c.Duration("interval"))
			}
			term := c.String("terminal")
			if follow.Nowhere(term, e.Getenv) {
				return usageError(c, "outside tmux and Herdr, name the terminal to follow: jig panel --terminal ID")
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			src, err := follow.New(term, e.Getenv)
			if err != nil {
				return err
			}
			src.Dir, src.Live, src.Now = dir, e.Liveness(), e.Now
			out, ok := stdoutFile(e.Stdout)
			if c.Bool("once") || !e.StdoutTTY || !ok {
				_, lines := src.Frame()
				_, err := fmt.Fprintln(e.Stdout, strings.Join(lines, "\n"))
				return err
			}
			in, _ := e.Stdin.(*os.File)
			return src.Run(context.Background(), panel.Terminal{In: in, Out: out}, c.Duration("interval"))
		},
	}
}
