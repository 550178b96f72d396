package main

import (
	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

func sessionShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "print a session's status, by id, by terminal id, or the one running in this terminal",
		UsageText: "jig session show [ID | TERMINAL] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"ID is a session id, else a terminal id as for-terminal takes it (%3, t7).\n" +
			"Without ID, the live session in the terminal this shell runs in (see jig terminal).\n" +
			"Output as for for-terminal. Exit 1 when there is no such session.\n\n" +
			"example: jig session show 0190a --format '{{.state}} {{percent .context.percent}}'",
		Flags: docFlags("the status file"),
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{Summary: e.StdoutTTY})
			if err != nil {
				return err
			}
			_, s, err := e.resolve(status.Target{Session: id, OrTerminal: true}, "a session ID")
			if err != nil {
				return err
			}
			return out.Status(e.Stdout, s)
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
