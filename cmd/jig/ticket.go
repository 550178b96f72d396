package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

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
					return e.ticketChoice(c, func(dir *status.Dir, cwd string) error { return ticket.Use(dir, cwd, key) })
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
					return e.ticketChoice(c, ticket.Clear)
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
					return e.ticketShow(c)
				},
			},
		},
	}
}

// ticketChoice runs a change of the working folder's choice.
func (e *env) ticketChoice(c *cli.Context, change func(*status.Dir, string) error) error {
	dir, err := e.stateDir()
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return errorf(c, exitFailed, "working folder: %v", err)
	}
	if err := change(dir, cwd); err != nil {
		return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
	}
	return nil
}

// findTicket is the active ticket of cwd as a writer finds it; event is a
// key said live ("" for none).
func (e *env) findTicket(dir *status.Dir, cwd, event string) *ticket.Found {
	return ticket.Resolve(e.getenv, e.agentDir(), ticket.Sources{Event: event, State: dir, CWD: cwd},
		transcript.NewRepoFinder().Repo)
}

// warn says each problem on a line of its own: what it spoiled is left
// out, the command goes on.
func (e *env) warn(c *cli.Context, problems ...error) {
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "jig: %s: warning: %s\n", commandName(c), render.Clean(p.Error()))
	}
}

func (e *env) ticketShow(c *cli.Context) error {
	dir, err := e.stateDir()
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return errorf(c, exitFailed, "working folder: %v", err)
	}
	f := e.findTicket(dir, cwd, "")
	e.warn(c, f.Problems...)
	if f.Ticket == nil {
		return errorf(c, exitNone, "no active ticket: %s", render.Clean(noKeyReason(f.Key.Head, cwd)))
	}
	if e.stdoutTTY {
		fmt.Fprintln(e.stdout, strings.Join(ticketLines(f), "\n"))
		return nil
	}
	out := struct {
		Ticket   *status.Ticket   `json:"ticket"`
		Workflow *status.Workflow `json:"workflow"`
		From     string           `json:"from"`
		Folder   *string          `json:"folder"`
		Outputs  []status.Output  `json:"outputs"`
	}{f.Ticket, f.Workflow, f.Key.From, nil, f.Outputs}
	if f.Folder != "" {
		out.Folder = &f.Folder
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintf(e.stdout, "%s\n", data)
	return nil
}

// noKeyReason says why no source named a key.
func noKeyReason(h ticket.Head, cwd string) string {
	why := "no choice for " + cwd + " (jig ticket use KEY), and "
	switch {
	case h.GitDir == "":
		return why + "it is in no git work tree"
	case h.Detached:
		return why + "its git HEAD is detached"
	}
	return why + fmt.Sprintf("its branch %q names no key", h.Branch)
}

// ticketLines is the active ticket for a human.
func ticketLines(f *ticket.Found) []string {
	t := f.Ticket
	l := []string{t.Key + "  " + t.Title + "  (from the " + f.Key.From + ")"}
	if t.URL != "" {
		l = append(l, "  "+t.URL)
	}
	if w := f.Workflow; w != nil {
		var stages []string
		for _, s := range w.Stages {
			if s == w.Current {
				s = "[" + s + "]"
			}
			stages = append(stages, s)
		}
		l = append(l, fmt.Sprintf("  workflow %s: %s  %s", w.Name, w.Current, strings.Join(stages, " → ")))
	}
	if f.Folder == "" {
		l = append(l, "  no ticket folder")
	}
	for _, o := range f.Outputs {
		l = append(l, "  "+o.At.Local().Format("2006-01-02 15:04")+"  "+o.Path)
	}
	for i := range l {
		l[i] = render.Clean(strings.TrimRight(l[i], " "))
	}
	return l
}
