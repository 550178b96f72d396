package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"jig/pi/bridge"
)

// piBridgeCommand is the long-lived process jig's Pi extension starts, one
// per session: JSON lines in from the extension, the status file out.
func piBridgeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "bridge",
		Usage: "keep a Pi session's status file (started by jig's Pi extension; JSON lines on stdin)",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "poll", Value: 2 * time.Second, Usage: "how often to look for a request"},
		},
		UsageText: "jig pi bridge [--poll D] < events.jsonl\n\nexample: jig pi bridge --poll 2s   # as jig's Pi extension starts it",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.Duration("poll") <= 0 {
				return usageError(c, "--poll %s: want a positive interval", c.Duration("poll"))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			return bridge.New(dir, e.now, e.getenv, host).Run(e.stdin, e.stdout, c.Duration("poll"))
		},
	}
}
