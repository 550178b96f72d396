package main

import (
	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/pi/transcript"
	"jig/render"
	"jig/status"
)

// promptWords is how much of a branch's last prompt jig pi tree shows.
const promptWords = 48

func piTreeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tree",
		Usage: "list every branch end (leaf) of a Pi session with its prompt, totals and summaries",
		UsageText: "jig pi tree FILE|ID [--json]\n\n" +
			"One line per leaf: its entry id, time, entries on the branch, the entry it branches\n" +
			"off at, the branch's tokens and cost, its last prompt, label and name. '*' marks the\n" +
			"active leaf (the file's last entry: Pi continues from it); \"after\" names the compactions\n" +
			"and branch summaries on the branch, oldest first.\n\n" +
			"example: jig pi tree 0190a --json | jq -r '.leaves[] | select(.active|not) | .id'",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := pi.NewSessions(e.Getenv).Find(c.Args().First())
			if err != nil {
				return err
			}
			t, err := transcript.ReadTree(file, promptWords)
			if err != nil {
				return status.Mark(status.ErrBadInput, err) // the reader names the file
			}
			for i := range t.Leaves {
				l := &t.Leaves[i]
				l.Prompt, l.Label, l.Name = render.Clean(l.Prompt), render.Clean(l.Label), render.Clean(l.Name)
			}
			if c.Bool("json") {
				return writeIndented(e.Stdout, t)
			}
			pi.PrintTree(e.Stdout, t)
			return nil
		},
	}
}
