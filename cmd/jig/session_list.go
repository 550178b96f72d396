package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"jig/board"
	"jig/render"
)

func sessionListCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the live sessions on this machine, newest first",
		UsageText: "jig session list [--all] [--slim] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"A table on a terminal, else (or with --json) a JSON array of the status files;\n" +
			"--jq and --format read that array. Files that cannot be read are skipped with a\n" +
			"warning on stderr. --slim prints the array (even on a terminal) with each file cut\n" +
			"to what a row of `jig board` shows: what the board asks other machines for.\n\n" +
			"example: jig session list --all\n" +
			"example: jig session list --jq '.[] | select(.state == \"busy\") | .session'",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "list sessions that have ended too (their files wait for gc)"},
			&cli.BoolFlag{Name: "slim", Usage: "print the array with each file cut to what a board row shows (no outputs, no workflow, the recent calls' tools)"},
		}, docFlags("the array of status files")...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{Summary: e.StdoutTTY})
			if err != nil {
				return err
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			warn := func(err error) { e.warnf(c, "skipped %v", err) }
			live := e.Liveness().Memo()
			heads, err := dir.List(c.Bool("all"), live, warn)
			if err != nil {
				return err
			}
			if slim := c.Bool("slim"); slim || out.Raw() {
				var shape func([]byte) []byte
				if slim {
					shape = board.Slim
				}
				return out.Docs(e.Stdout, func(w io.Writer) error { return dir.WriteArray(w, heads, warn, shape) })
			}
			render.Table(e.Stdout, dir.ReadHeads(heads), live.Alive, e.Now(), columns(e.Getenv, e.Stdout))
			return nil
		},
	}
}
