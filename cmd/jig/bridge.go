package main

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"jig/status"
)

// bridgeRunner is an agent's bridge: lines in, status files out, requests looked for every poll.
type bridgeRunner interface {
	Run(in io.Reader, out io.Writer, poll time.Duration) error
}

// bridgeCommand is `jig AGENT bridge`, the long-lived process an agent's extension or plugin
// starts and feeds JSON lines (Pi: one per session; OpenCode: one per opencode process).
func bridgeCommand(e *env, usage, usageText string, bridge func(dir *status.Dir, host string) bridgeRunner) *cli.Command {
	return &cli.Command{
		Name: "bridge", Usage: usage, UsageText: usageText,
		Flags: []cli.Flag{&cli.DurationFlag{Name: "poll", Value: 2 * time.Second, Usage: "how often to look for a request"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.Duration("poll") <= 0 {
				return usageError(c, "--poll %s: want a positive interval", c.Duration("poll"))
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			host, _ := e.Hostname()
			return bridge(dir, host).Run(e.Stdin, e.Stdout, c.Duration("poll"))
		},
	}
}
