package cmdline

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"
)

// HelpArgs is `jig help CMD [SUB]` read as `jig CMD [SUB] --help`, as git
// and gh take it; other command lines as they are. A CMD that is none of
// app's is an error.
func HelpArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 || args[1] != "help" {
		return args, nil
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

// Grouped is cmds under the groups' headings, in the groups' order (urfave
// sorts the headings by name: the names must sort in that order), and every
// command no group names under rest, after them.
func Grouped(cmds []*cli.Command, rest string, groups ...Group) []*cli.Command {
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
