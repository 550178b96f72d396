package cmdline

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
)

// Prepare is the command line as jig is to read it: the hex form's
// arguments (FromRemote), and `jig help CMD [SUB]` read as `jig CMD [SUB]
// --help`, as git and gh take it. A CMD that is none of app's is an error.
func Prepare(app *cli.App, args []string) ([]string, error) {
	args, err := FromRemote(args)
	if err != nil || len(args) < 2 || args[1] != "help" {
		return args, err
	}
	if len(args) > 2 && app.Command(args[2]) == nil {
		return nil, fmt.Errorf("help: unknown command %q%s; see jig --help", args[2], SuggestCommand(app.Commands, args[2]))
	}
	return append(append([]string{args[0]}, args[2:]...), "--help"), nil
}

// A Group is a heading of the top-level help and the commands under it.
type Group struct {
	Name     string
	Commands []string
}

// Headings are the headings of `jig --help`, what a new user runs first
// first; a command none names goes under Rest, after them.
var Headings = []Group{
	{Name: "Getting started", Commands: []string{"demo", "board", "install"}},
	{Name: "Look and steer", Commands: []string{"session", "request", "panel", "terminal", "ticket", "config"}},
	{Name: "Shell", Commands: []string{"completion", "version"}},
}

// Rest is the heading of the commands no heading names: the agents' own.
const Rest = "Per agent"

// Grouped is cmds under Headings, in their order (urfave sorts the
// headings by name: the names sort in that order, Rest among them), and
// every command no heading names under Rest.
func Grouped(cmds []*cli.Command) []*cli.Command {
	groups, rest := Headings, Rest
	place := func(c *cli.Command) int {
		for i, g := range groups {
			if at := slices.Index(g.Commands, c.Name); at >= 0 {
				c.Category = g.Name
				return i*1000 + at
			}
		}
		c.Category = rest
		return len(groups) * 1000
	}
	out := slices.Clone(cmds)
	slices.SortStableFunc(out, func(a, b *cli.Command) int { return place(a) - place(b) })
	return out
}
