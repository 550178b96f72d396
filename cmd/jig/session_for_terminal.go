package main

import (
	"github.com/urfave/cli/v2"

	"jig/render"
)

func sessionForTerminalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "for-terminal",
		Usage: "print the live session running in a terminal (exit 1 when none)",
		UsageText: "jig session for-terminal [ID ...] [--json | --jq EXPR | --format TEMPLATE | --preset HOST] [--max-width N] [--rate-limits] [--shell SHELL]\n\n" +
			"Prints the status file (JSON) of the live session whose terminals contain ID;\n" +
			"a short summary instead when stdout is a terminal. No ID: this shell's terminal, nothing\n" +
			"outside one (a prompt's default). Several (a tmux window's panes): the one that waits, else\n" +
			"a busy one, else the first. Exit 0 found, 1 none (nothing printed), 2 usage, 3 state dir unsafe.\n\n" +
			"example: jig session for-terminal %3 --format '{{.state}} {{short .model}} {{percent .context.percent}}'\n" +
			"example: jig session for-terminal %3 --jq .model.id\n" +
			"example (tmux.conf): set -g status-right '#(jig session for-terminal \"#{pane_id}\" --preset tmux --max-width 40)'\n" +
			"example (each window in tmux's list, any of its panes): set -g window-status-format '#I:#W#(jig session for-terminal #{P:#{pane_id} } --preset glyph)'\n" +
			"example (~/.bashrc): PS1='$(jig session for-terminal --preset ansi --shell bash) \\$ '",
		Flags: append(docFlags("the status file"), presetFlags()...),
		Action: func(c *cli.Context) error {
			out, err := e.printer(c, render.Output{Summary: e.StdoutTTY})
			if err != nil {
				return err
			}
			return e.ForTerminal(out, c.Args().Slice())
		},
	}
}
