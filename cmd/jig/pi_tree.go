package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
	"jig/status"
	"jig/transcript"
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
			file, err := pi.NewSessions(e.getenv).Find(c.Args().First())
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
				return writeIndented(e.stdout, t)
			}
			render.PiTree(e.stdout, t)
			return nil
		},
	}
}

func piForkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "fork",
		Usage: "write a new Pi session holding a branch up to an entry, for pi --session",
		UsageText: "jig pi fork FILE|ID --at ENTRY [--empty] [--cwd DIR] [--json]\n\n" +
			"Writes a new session file as Pi's own fork does: a new session id, a header whose\n" +
			"parentSession names the source, and the entries of the branch ending at ENTRY (none\n" +
			"with --empty). It goes into Pi's sessions folder for the cwd (the source's, or DIR), in\n" +
			"one step; the source is only read. The file is in Pi's current format (v3) whatever\n" +
			"the source's, so Pi 0.x and 1.x open it as it is. Prints the new session's id and file.\n\n" +
			"example: pi --session \"$(jig pi fork 0190a --at 3f2a91bc --json | jq -r .path)\"",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "at", Usage: "the `ENTRY` id the new session's branch ends at (jig pi tree lists them)"},
			&cli.BoolFlag{Name: "empty", Usage: "copy no entries: only the header naming the source"},
			&cli.StringFlag{Name: "cwd", Usage: "the new session's working folder `DIR` (default: the source's)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			at := c.String("at")
			if at == "" && !c.Bool("empty") {
				return usageError(c, "--at ENTRY is required (or --empty)")
			}
			cwd := c.String("cwd")
			if cwd != "" {
				var err error
				if cwd, err = filepath.Abs(cwd); err != nil {
					return usageError(c, "--cwd: %v", err)
				}
			}
			sessions := pi.NewSessions(e.getenv)
			file, err := sessions.Find(c.Args().First())
			if err != nil {
				return err
			}
			f, err := sessions.Fork(file, at, c.Bool("empty"), cwd, e.now())
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeIndented(e.stdout, f)
			}
			fmt.Fprintf(e.stdout, "session\t%s\nfile\t%s\n", render.Clean(f.ID), render.Clean(f.Path))
			return nil
		},
	}
}
