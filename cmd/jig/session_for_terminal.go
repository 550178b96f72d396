package main

import (
	"github.com/urfave/cli/v2"

	"jig/render"
)

func sessionForTerminalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "for-terminal",
		Usage: "print the live session running in a terminal (exit 1 when none)",
		UsageText: "jig session for-terminal ID [--json | --jq EXPR | --format TEMPLATE | --preset HOST] [--max-width N] [--rate-limits] [--shell SHELL]\n\n" +
			"Prints the status file (JSON) of the live session whose terminals contain ID;\n" +
			"a short summary instead when stdout is a terminal. Exit 0 found, 1 none\n" +
			"(nothing printed), 2 usage, 3 state dir unreadable or unsafe.\n\n" +
			"example: jig session for-terminal %3 --format '{{.state}} {{short .model}} {{percent .context.percent}}'\n" +
			"example: jig session for-terminal %3 --jq .model.id\n" +
			"example (tmux.conf): set -g status-right '#(jig session for-terminal \"#{pane_id}\" --preset tmux --max-width 40)'\n" +
			"example (each window in tmux's list): set -g window-status-format '#I:#W#(jig session for-terminal \"#{pane_id}\" --preset glyph)'\n" +
			"example (~/.bashrc): PS1='$(jig session for-terminal \"$TMUX_PANE\" --preset ansi --shell bash) \\$ '",
		Flags: append(docFlags("the status file"), presetFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || c.Args().First() == "" {
				return usageError(c, "want one terminal ID, got %d arguments", c.NArg())
			}
			out, err := e.printer(c, render.Output{Summary: e.stdoutTTY})
			if err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			id := c.Args().First()
			if out.Raw() {
				// The hot path of status bars: the file as it is, decoded no
				// further than needed to pick it.
				data, err := dir.ForTerminalRaw(id, e.liveness())
				if err != nil || data == nil {
					return noneFound(err)
				}
				return out.Doc(e.stdout, data)
			}
			s, err := dir.ForTerminal(id, e.liveness())
			if err != nil || s == nil {
				return noneFound(err)
			}
			return out.Status(e.stdout, s)
		},
	}
}

// noneFound is a search's error, or exit 1 in silence when it found
// nothing: a status line shows nothing.
func noneFound(err error) error {
	if err != nil {
		return err
	}
	return silent(exitNone)
}
