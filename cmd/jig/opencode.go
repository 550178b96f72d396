package main

import (
	"cmp"
	"time"

	"github.com/urfave/cli/v2"

	"jig/agents"
	"jig/opencode"
	"jig/opencode/bridge"
	"jig/render"
	"jig/transcript"
)

// OpenCode registers here until cmd/jig has one registry file.
func init() { agents.MustRegister(opencode.Agent) }

// opencodeCommand groups what jig does with OpenCode.
func opencodeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "opencode",
		Usage:     "read OpenCode's sessions; run the bridge of jig's OpenCode plugin",
		UsageText: "jig opencode COMMAND [options] [arguments]\n\nexample: jig opencode sessions --cwd .",
		Subcommands: []*cli.Command{
			opencodeSessionsCommand(e),
			opencodeShowCommand(e),
			opencodeBridgeCommand(e),
		},
	}
}

// opencodeCLI is the opencode jig asks: $OPENCODE_BIN, else opencode on PATH.
func opencodeCLI(e *env) opencode.CLI {
	return opencode.CLI{Bin: cmp.Or(e.getenv("OPENCODE_BIN"), "opencode")}
}

func opencodeSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list OpenCode's sessions, newest first (opencode session list)",
		UsageText: "jig opencode sessions [--cwd DIR] [--json]\n\nexample: jig opencode sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			return printSessions(c, e.stdout, func() ([]*transcript.Listed, error) { return opencodeCLI(e).List() })
		},
	}
}

func opencodeShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show what OpenCode keeps of a session (opencode export): model, effort, usage, context, outputs, recent calls",
		UsageText: "jig opencode show ID [--json]\n\nexample: jig opencode show ses_2334300e3001wrY0Rx4DNNPNdE",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one session ID")
			}
			exported, err := opencodeCLI(e).Export(c.Args().First())
			if err != nil {
				return err
			}
			d := exported.Derived()
			if c.Bool("json") {
				return writeIndented(e.stdout, d)
			}
			render.OpenCodeShow(e.stdout, d, exported.Called())
			return nil
		},
	}
}

// opencodeBridgeCommand is the long-lived process jig's OpenCode plugin
// starts, one per opencode process: JSON lines in, one status file per
// session out.
func opencodeBridgeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "bridge",
		Usage:     "keep the status files of an opencode process's sessions (started by jig's plugin; JSON lines on stdin)",
		UsageText: "jig opencode bridge [--poll D] < events.jsonl\n\nexample: jig opencode bridge --poll 2s   # as jig's plugin starts it",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "poll", Value: 2 * time.Second, Usage: "how often to look for a request"},
		},
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
