package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/completion"
	"jig/render"
	"jig/terminal"
)

// completionRequest is the last argument the completion scripts add to the
// words typed so far (urfave/cli's hidden flag name).
const completionRequest = "--generate-bash-completion"

// complete prints the words that may come next, one a line, or the one
// line completion.Files or Dirs; words is the command line without "jig"
// and the request, its last word the one being typed (maybe empty). The
// shell keeps the words that start with it. A word starting with "-" is a
// flag being typed: the command's flags (or, as --flag=, its values).
// After a flag that takes a value: its values. Else the subcommands, or
// what the command takes as its next argument. It answers here rather than
// through urfave/cli, which reads os.Args and gives up on a word "--", the
// very word being completed at --<TAB>.
func (e *env) complete(app *cli.App, words []string) {
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	flags, subs := append(app.Flags, cli.VersionFlag), app.Commands
	var path []string // the command names walked
	line := completion.Line{Flags: map[string]string{}}
	flagsDone := false // after "--", every word is an argument
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--" && !flagsDone:
			flagsDone = true
		case strings.HasPrefix(w, "-") && !flagsDone:
			name, value, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if takesValue(flags, w) {
				if i+1 == len(words) {
					line.Flag = name
					break
				}
				i++
				value = words[i]
			}
			line.Flags[name] = value
		case len(line.Args) == 0 && findCommand(subs, w) != nil:
			c := findCommand(subs, w)
			path = append(path, c.Name)
			flags, subs = c.Flags, c.Subcommands
		default:
			line.Args = append(line.Args, w)
		}
	}
	line.Command = strings.Join(path, " ")
	var out []string
	prefix := "" // "--preset=" when the value is typed in the flag's word
	if name, _, ok := strings.Cut(cur, "="); ok && line.Flag == "" && !flagsDone && strings.HasPrefix(cur, "-") && takesValue(flags, name) {
		line.Flag, prefix = strings.TrimLeft(name, "-"), name+"="
	}
	switch {
	case line.Flag != "":
		out = e.completionValues().Next(line)
	case strings.HasPrefix(cur, "-") && !flagsDone:
		for _, f := range append(flags, cli.HelpFlag) {
			for _, n := range f.Names() {
				if len(n) == 1 {
					out = append(out, "-"+n)
				} else {
					out = append(out, "--"+n)
				}
			}
		}
	case len(subs) > 0 && len(line.Args) == 0:
		for _, c := range subs {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
	default:
		out = e.completionValues().Next(line)
	}
	for _, w := range out {
		if w != completion.Files && w != completion.Dirs {
			w = prefix + w
		}
		fmt.Fprintln(e.stdout, render.Clean(w))
	}
}

// completionValues reads the values of this state dir and terminal.
func (e *env) completionValues() completion.Values {
	v := completion.Values{Live: e.liveness()}
	if dir, err := e.stateDir(); err == nil {
		v.Dir = dir
	}
	if t := terminal.Innermost(terminal.Detect(e.getenv)); t != nil {
		v.Terminal = t.ID
	}
	return v
}
