package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
	"jig/ticket"
	"jig/transcript"
)

// ticketCommand chooses the ticket of a working folder and shows the
// active one, as the status writers find it (docs/ticket.md).
func ticketCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "ticket",
		Usage:     "choose the ticket of this folder; show the active ticket, its workflow and files",
		UsageText: "jig ticket use KEY | clear | show\n\nexample: jig ticket use SHOP-142",
		Subcommands: []*cli.Command{
			{
				Name:  "use",
				Usage: "make KEY the ticket of this working folder (and the folders below it)",
				UsageText: "jig ticket use KEY\n\n" +
					"A session's live jig:ticket event still wins; the choice wins over the git branch.\n\n" +
					"example: jig ticket use SHOP-142",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError(c, "want one ticket KEY, such as SHOP-142")
					}
					key := c.Args().First()
					if !ticket.ValidKey(key) {
						return usageError(c, "%q is not a ticket key (such as SHOP-142)", render.Clean(status.Cut(key)))
					}
					dir, cwd, err := e.ticketFolder()
					if err != nil {
						return err
					}
					return ticket.Use(dir, cwd, key)
				},
			},
			{
				Name:      "clear",
				Usage:     "forget this working folder's ticket choice",
				UsageText: "jig ticket clear\n\nexample: jig ticket clear",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					dir, cwd, err := e.ticketFolder()
					if err != nil {
						return err
					}
					return ticket.Clear(dir, cwd)
				},
			},
			{
				Name:  "show",
				Usage: "the active ticket of this working folder, its workflow and its files",
				UsageText: "jig ticket show\n\n" +
					"On a pipe: JSON {ticket, workflow, from, folder, outputs}. No active ticket: exit 1.\n\n" +
					"example: jig ticket show | jq .workflow",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					dir, cwd, err := e.ticketFolder()
					if err != nil {
						return err
					}
					f := ticket.Resolve(e.Getenv, agentDir(e.Getenv), ticket.Sources{State: dir, CWD: cwd}, transcript.NewRepoFinder().Repo)
					for _, p := range f.Problems {
						e.warnf(c, "warning: %v", p)
					}
					if f.Ticket == nil {
						return status.Mark(status.ErrNotFound, fmt.Errorf("no active ticket: %s", f.Key.Head.NoKey(cwd)))
					}
					if e.StdoutTTY {
						render.Ticket(e.Stdout, f)
						return nil
					}
					return writeIndented(e.Stdout, render.TicketJSON(f))
				},
			},
		},
	}
}

// ticketFolder is the state dir and the working folder a ticket command
// works on.
func (e *env) ticketFolder() (*status.Dir, string, error) {
	dir, err := e.StateDir()
	if err != nil {
		return nil, "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", fmt.Errorf("working folder: %v", err)
	}
	return dir, cwd, nil
}
