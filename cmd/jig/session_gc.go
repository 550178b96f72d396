package main

import (
	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

func sessionGCCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gc",
		Usage: "remove the status files of sessions that have ended, stale index entries and their leftovers",
		UsageText: "jig session gc\n\n" +
			"Removes the files of this machine's sessions whose process is gone (or whose pid\n" +
			"another process took), then what ended sessions leave behind: transcript cursors and\n" +
			"waiting requests of sessions that have no status file (untouched for 10 minutes, so a\n" +
			"session starting or resuming keeps them) and claims a dying taker left. Files it cannot\n" +
			"read stay, with a warning. Temp files of writes cut short (a writer killed mid-write)\n" +
			"go once 10 minutes old.\n\n" +
			"example: jig session gc",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			// A state dir that cannot be read is exit 3, as for list; what
			// fails after is gc's own I/O.
			if err := dir.Check(status.SessionsDir, status.TerminalsDir, status.RequestsDir); err != nil {
				return err
			}
			cleaned, err := dir.GC(e.Liveness(), e.Now())
			if err != nil {
				return err
			}
			for _, en := range cleaned.Skipped {
				e.warnf(c, "skipped %v", en.Err)
			}
			render.Cleaned(e.Stdout, cleaned)
			return nil
		},
	}
}
