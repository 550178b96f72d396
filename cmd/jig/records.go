package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"jig/transcript"
)

// records is an agent's transcripts as its sessions and show commands read
// them: the agent's name, what it calls one, what show says of one, an
// example, and its reader.
type records struct {
	agent, label, kind, says, example string
	list                              func() ([]*transcript.Listed, error)
	find                              func(arg string) (string, error)
	// show reads a file whole: what --json prints, and the text printer.
	show func(file string) (any, func(io.Writer), error)
}

func (r records) sessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list " + r.label + "'s sessions, newest first, from their " + r.kind + "s' heads",
		UsageText: "jig " + r.agent + " sessions [--cwd DIR] [--json]\n\nexample: jig " + r.agent + " sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error { return printSessions(c, e.stdout, r.list) },
	}
}

func (r records) showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show what a " + r.label + " " + r.kind + " says: " + r.says,
		UsageText: "jig " + r.agent + " show FILE|ID [--json]\n\nexample: jig " + r.agent + " show " + r.example,
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := r.find(c.Args().First())
			if err != nil {
				return err
			}
			v, print, err := r.show(file)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeIndented(e.stdout, v)
			}
			print(e.stdout)
			return nil
		},
	}
}
