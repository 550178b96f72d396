package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/urfave/cli/v2"

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
				UsageText: "jig herdr sync\n\n" +
					"Run by the jig Herdr plugin on pane.focused, pane.agent_status_changed and at startup.\n" +
					"A pane is matched by the HERDR_PANE_ID its session recorded, or by its agent session file.\n\n" +
					"example: jig herdr sync",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					return herdrSync(c, e)
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
	paneID := actionPane(e.getenv)
	if paneID == "" {
		return usageError(c, "no pane: run it from a Herdr plugin action, or use jig request --terminal ID")
	}
	s, err := paneSession(e, paneID)
	if err != nil {
		return err
	}
	argv := append(append([]string{"request"}, args...), "--session", s.Session, "--wait")
	if c.Bool("dry-run") {
		fmt.Fprintln(e.stdout, render.Clean("jig "+strings.Join(argv, " ")))
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find jig itself: %v", err)
	}
	cmd := exec.Command(self, argv...)
	cmd.Args[0] = "jig"
	cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
	var exited *exec.ExitError
	if err := cmd.Run(); errors.As(err, &exited) {
		return silent(exited.ExitCode()) // jig request said why
	} else if err != nil {
		return err
	}
	return nil
}

// actionPane is the pane a plugin action was invoked on:
// HERDR_PLUGIN_CONTEXT_JSON's focused_pane_id, else HERDR_PANE_ID.
func actionPane(getenv func(string) string) string {
	var pc struct {
		FocusedPaneID string `json:"focused_pane_id"`
	}
	if ctx := getenv("HERDR_PLUGIN_CONTEXT_JSON"); ctx != "" && json.Unmarshal([]byte(ctx), &pc) == nil && pc.FocusedPaneID != "" {
		return pc.FocusedPaneID
	}
	return getenv("HERDR_PANE_ID")
}

// paneSession is the live jig session in a Herdr pane.
func paneSession(e *env, paneID string) (*status.Status, error) {
	_, dir, panes, err := herdrState(e)
	if err != nil {
		return nil, err
	}
	pane := herdr1.Pane{PaneID: paneID}
	for _, p := range panes {
		if p.PaneID == paneID {
			pane = p
		}
	}
	s, err := herdr1.SessionFor(dir, e.liveness(), pane)
	switch {
	case err != nil:
		return nil, status.Mark(status.ErrStateDir, err)
	case s == nil:
		return nil, status.Mark(status.ErrNoSession, fmt.Errorf("no jig session in pane %s", paneID))
	}
	return s, nil
}

// herdrState is what both herdr commands start from: the herdr program,
// the state dir and Herdr's panes.
func herdrState(e *env) (bin string, dir *status.Dir, panes []herdr1.Pane, err error) {
	if bin, err = herdr1.Find(e.getenv); err != nil {
		return "", nil, nil, noHerdr(err)
	}
	if dir, err = e.stateDir(); err != nil {
		return "", nil, nil, err
	}
	if panes, err = herdr1.Panes(bin); err != nil {
		return "", nil, nil, err
	}
	return bin, dir, panes, nil
}

func herdrSync(c *cli.Context, e *env) error {
	bin, dir, panes, err := herdrState(e)
	if err != nil {
		return err
	}
	err = herdr1.Sync(bin, panes, dir, e.liveness(), e.now())
	if err == nil || errors.As(err, new(*herdr1.ReportError)) {
		return err
	}
	return status.Mark(status.ErrStateDir, err) // its listing of the sessions
}
