package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

func sessionListCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the live sessions on this machine, newest first",
		UsageText: "jig session list [--all] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"A table on a terminal, else (or with --json) a JSON array of the status files;\n" +
			"--jq and --format read that array. Files that cannot be read are skipped with a\n" +
			"warning on stderr.\n\n" +
			"example: jig session list --all\n" +
			"example: jig session list --jq '.[] | select(.state == \"busy\") | .session'",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "list sessions that have ended too (their files wait for gc)"},
		}, docFlags("the array of status files")...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{Summary: e.stdoutTTY})
			if err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			warn := func(err error) { e.warnf(c, "skipped %v", err) }
			live := e.liveness().Memo()
			heads, err := dir.List(c.Bool("all"), live, warn)
			if err != nil {
				return err
			}
			if out.Raw() {
				return out.Docs(e.stdout, func(w io.Writer) error { return dir.WriteArray(w, heads, warn) })
			}
			render.Table(e.stdout, dir.ReadHeads(heads), live.Alive, e.now(), columns(e.getenv, e.stdout))
			return nil
		},
	}
}


func sessionShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "print a session's status, by id or the one running in this terminal",
		UsageText: "jig session show [ID] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"Without ID, the live session in the terminal this shell runs in (see jig terminal).\n" +
			"Output as for for-terminal. Exit 1 when there is no such session.\n\n" +
			"example: jig session show 0190a --format '{{.state}} {{percent .context.percent}}'",
		Flags: docFlags("the status file"),
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{Summary: e.stdoutTTY})
			if err != nil {
				return err
			}
			_, s, err := e.resolve(status.Target{Session: id}, "a session ID")
			if err != nil {
				return err
			}
			return out.Status(e.stdout, s)
		},
	}
}

func sessionPathCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "path",
		Usage: "print the status file of a session id, or of the session in this terminal",
		UsageText: "jig session path [ID]\n\n" +
			"With ID, where that session's file is (or would be): the id made safe as a file name.\n" +
			"Without, the file of the live session in this terminal; outside any terminal jig\n" +
			"knows, of the one live session on this machine. Exit 1 when there is none (or,\n" +
			"outside a terminal, more than one).\n\n" +
			"example: cat \"$(jig session path)\"",
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			if id != "" {
				// The path is for reading: a folder jig refuses is no place to send a reader.
				dir, err := e.stateDir()
				if err == nil {
					err = dir.Check(status.SessionsDir)
				}
				if err != nil {
					return err
				}
				fmt.Fprintln(e.stdout, dir.SessionPath(id))
				return nil
			}
			dir, s, err := e.resolve(status.Target{}, "a session ID")
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, dir.SessionPath(s.Session))
			return nil
		},
	}
}

// sessionArg is the optional session ID argument of show, path and
// context: "" when none is given.
func sessionArg(c *cli.Context) (string, error) {
	switch {
	case c.NArg() > 1:
		return "", usageError(c, "want at most one session ID, got %d arguments", c.NArg())
	case c.NArg() == 1 && c.Args().First() == "":
		return "", usageError(c, "empty session ID")
	}
	return c.Args().First(), nil
}

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
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			// A state dir that cannot be read is exit 3, as for list; what
			// fails after is gc's own I/O.
			if err := dir.Check(status.SessionsDir, status.TerminalsDir, status.RequestsDir); err != nil {
				return err
			}
			cleaned, err := dir.GC(e.liveness(), e.now())
			if err != nil {
				return err
			}
			for _, en := range cleaned.Skipped {
				e.warnf(c, "skipped %v", en.Err)
			}
			render.Cleaned(e.stdout, cleaned)
			return nil
		},
	}
}
