package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/exit"
	"jig/herdr/herdr1"
	"jig/render"
	"jig/status"
)

// jig herdr: the commands the Herdr 1 plugin runs; the Herdr client is
// package herdr1.

func herdrCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "herdr",
		Usage: "work with Herdr 1, the terminal multiplexer",
		UsageText: "jig herdr COMMAND [options] [arguments]\n\n" +
			"example: jig herdr request tool bash off --dry-run",
		Subcommands: []*cli.Command{
			{
				Name:  "sync",
				Usage: "put each session's jig_ctx, jig_cost and jig_model tokens into Herdr's sidebar and its state into Herdr's agent state",
				UsageText: "jig herdr sync [--pane ID]\n\n" +
					"Run by the jig Herdr plugin on pane.focused, pane.agent_status_changed and at startup, and\n" +
					"by jig's writers (--pane) when a session in a Herdr pane changes state or attention.\n" +
					"A pane is matched by the HERDR_PANE_ID its session recorded, or by its agent session file.\n" +
					"A pane Herdr's own integration reports (herdr:claude, …) drops jig's state: stderr says so.\n\n" +
					"example: jig herdr sync",
				Flags: []cli.Flag{&cli.StringFlag{Name: "pane", Usage: "sync only the Herdr pane `ID`"}},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					bin, dir, err := herdrState(e)
					if err != nil {
						return err
					}
					notes, err := herdr1.Sync(bin, dir, e.Liveness(), e.Now(), c.String("pane"))
					for _, n := range notes {
						fmt.Fprintf(e.Stderr, "jig: herdr sync: %s\n", n)
					}
					return err
				},
			},
			{
				Name:  "request",
				Usage: "send a request to the Pi session in Herdr's focused pane (the plugin's actions)",
				UsageText: "jig herdr request tool NAME on|off | skill NAME on|off | reload [--dry-run]\n\n" +
					"Runs `jig request ... --session ID --wait` for the session in the pane the action was\n" +
					"invoked on (HERDR_PLUGIN_CONTEXT_JSON's focused_pane_id, else HERDR_PANE_ID).\n\n" +
					"example: jig herdr request skill pdf on",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "dry-run", Usage: "print the jig request command instead of running it"},
				},
				Action: func(c *cli.Context) error {
					return herdrRequest(c, e)
				},
			},
		},
	}
}

// herdrRequest finds the session in the pane a plugin action names and
// hands the request to `jig request`, which owns the request protocol.
func herdrRequest(c *cli.Context, e *env) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usageError(c, "say what to request: tool NAME on|off, skill NAME on|off or reload")
	}
	paneID := herdr1.ActionPane(e.Getenv)
	if paneID == "" {
		return usageError(c, "no pane: run it from a Herdr plugin action, or use jig request --terminal ID")
	}
	bin, dir, err := herdrState(e)
	if err != nil {
		return err
	}
	s, err := herdr1.PaneSession(bin, dir, e.Liveness(), paneID)
	if err != nil {
		return err
	}
	argv := append(append([]string{"jig", "request"}, args...), "--session", s.Session, "--wait")
	if c.Bool("dry-run") {
		fmt.Fprintln(e.Stdout, render.Clean(strings.Join(argv, " ")))
		return nil
	}
	if code := run(argv, e); code != exit.OK {
		return exit.Silent(code) // jig request said why
	}
	return nil
}

// herdrState is what both herdr commands start from: the herdr program
// and the state dir.
func herdrState(e *env) (bin string, dir *status.Dir, err error) {
	if bin, err = herdr1.Find(e.Getenv); err != nil {
		return "", nil, err
	}
	dir, err = e.StateDir()
	return bin, dir, err
}
