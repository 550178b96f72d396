package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
)

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
			sessions := pi.NewSessions(e.Getenv)
			file, err := sessions.Find(c.Args().First())
			if err != nil {
				return err
			}
			f, err := sessions.Fork(file, at, c.Bool("empty"), cwd, e.Now())
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeIndented(e.Stdout, f)
			}
			fmt.Fprintf(e.Stdout, "session\t%s\nfile\t%s\n", render.Clean(f.ID), render.Clean(f.Path))
			return nil
		},
	}
}
