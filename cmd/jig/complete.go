package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
)

// completionRequest is the last argument the completion scripts add to the
// words typed so far (urfave/cli's hidden flag, so its fish script works too).
const completionRequest = "--generate-bash-completion"

// complete prints the words that may come next, one a line; words is the
// command line without "jig" and the request, its last word the one being
// typed (maybe empty). The shell keeps the words that start with it. It
// answers here rather than through urfave/cli, which reads os.Args and
// gives up on a word "--", the very word being completed at --<TAB>.
func (e *env) complete(app *cli.App, words []string) {
	live := func() (sessions, terminals []string) {
		dir, err := e.stateDir()
		if err != nil {
			return nil, nil // completion stays quiet
		}
		return dir.LiveIDs(e.liveness())
	}
	for _, w := range completions(app, words, live) {
		fmt.Fprintln(e.stdout, render.Clean(w))
	}
}

// typed is where the words before the one being completed lead: the
// commands walked, their flags and subcommands, and the flag whose value
// comes next ("" for none).
type typed struct {
	path      []string
	flags     []cli.Flag
	subs      []*cli.Command
	valueFlag string
}

// walk follows the words typed through the commands.
func walk(app *cli.App, words []string) typed {
	t := typed{flags: append(app.Flags, cli.VersionFlag), subs: app.Commands}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if takesValue(t.flags, w) {
				if i+1 == len(words) {
					t.valueFlag = strings.TrimLeft(w, "-")
				}
				i++
			}
			continue
		}
		if c := findCommand(t.subs, w); c != nil {
			t.path = append(t.path, c.Name)
			t.flags, t.subs = c.Flags, c.Subcommands
		}
	}
	return t
}

// completions are the words that may come next. A word starting with "-"
// is a flag being typed: the command's flags. After a flag that takes a
// value: its values (presets, shells, live session and terminal ids). Else
// the subcommands, or what the command takes as its argument.
func completions(app *cli.App, words []string, live func() (sessions, terminals []string)) []string {
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	t := walk(app, words)
	var out []string
	switch {
	case strings.HasPrefix(cur, "-"):
		for _, f := range append(t.flags, cli.HelpFlag) {
			for _, n := range f.Names() {
				dashes := "--"
				if len(n) == 1 {
					dashes = "-"
				}
				out = append(out, dashes+n)
			}
		}
	case t.valueFlag != "":
		out = values(t.valueFlag, live)
	case len(t.subs) > 0:
		for _, c := range t.subs {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
	default:
		out = values(strings.Join(t.path, " "), live)
	}
	return out
}

// values are what a flag (by its name) or a command (by its path) takes.
func values(what string, live func() (sessions, terminals []string)) []string {
	switch what {
	case "preset":
		return render.Presets
	case "shell", "completion":
		return render.Shells
	case "session", "session show", "session path", "session context", "session watch":
		sessions, _ := live()
		return sessions
	case "terminal", "session for-terminal":
		_, terminals := live()
		return terminals
	}
	return nil
}
