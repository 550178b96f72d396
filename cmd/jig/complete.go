package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

// completionRequest is the last argument the completion scripts add to the
// words typed so far (urfave/cli's hidden flag, so its fish script works too).
const completionRequest = "--generate-bash-completion"

// complete prints the words that may come next, one a line; words is the
// command line without "jig" and the request, its last word the one being
// typed (maybe empty). The shell keeps the words that start with it. A word
// starting with "-" is a flag being typed: the command's flags. After a flag that takes a value:
// its values (presets, shells, live session and terminal ids). Else the
// subcommands, or what the command takes as its argument. It answers here
// rather than through urfave/cli, which reads os.Args and gives up on a
// word "--", the very word being completed at --<TAB>.
func (e *env) complete(app *cli.App, words []string) {
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	flagTyped := strings.HasPrefix(cur, "-")
	flags, subs := append(app.Flags, cli.VersionFlag), app.Commands
	var path []string // the command names walked
	afterValueFlag := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if takesValue(flags, w) {
				if i+1 == len(words) {
					afterValueFlag = strings.TrimLeft(w, "-")
				}
				i++
			}
			continue
		}
		if c := findCommand(subs, w); c != nil {
			path = append(path, c.Name)
			flags, subs = c.Flags, c.Subcommands
		}
	}
	var out []string
	switch {
	case flagTyped:
		for _, f := range append(flags, cli.HelpFlag) {
			for _, n := range f.Names() {
				if len(n) == 1 {
					out = append(out, "-"+n)
				} else {
					out = append(out, "--"+n)
				}
			}
		}
	case afterValueFlag != "":
		out = e.flagValues(afterValueFlag)
	case len(subs) > 0:
		for _, c := range subs {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
	default:
		out = e.argumentValues(strings.Join(path, " "))
	}
	for _, w := range out {
		fmt.Fprintln(e.stdout, render.Clean(w))
	}
}

// flagValues are the values a flag's name says it takes.
func (e *env) flagValues(flag string) []string {
	switch flag {
	case "preset":
		return render.Presets
	case "shell":
		return render.Shells
	case "session":
		ids, _ := e.liveIDs()
		return ids
	case "terminal":
		_, terms := e.liveIDs()
		return terms
	}
	return nil
}

// argumentValues are what a command takes as its argument.
func (e *env) argumentValues(command string) []string {
	switch command {
	case "session for-terminal":
		_, terms := e.liveIDs()
		return terms
	case "session show", "session path", "session context", "session watch":
		ids, _ := e.liveIDs()
		return ids
	case "completion":
		return render.Shells
	}
	return nil
}

// liveIDs are the ids of the live sessions and of their terminals; none
// when the state dir cannot be read (completion stays quiet).
func (e *env) liveIDs() (sessions, terminals []string) {
	dir, err := e.stateDir()
	if err != nil {
		return nil, nil
	}
	live := e.liveness().Memo()
	seen := map[string]bool{}
	dir.EachHead(false, func(h *status.Head, err error) error {
		if err != nil || !live.Alive(h.Status()) {
			return nil
		}
		sessions = append(sessions, h.Session)
		for _, t := range h.Terminals {
			if !seen[t.ID] {
				seen[t.ID] = true
				terminals = append(terminals, t.ID)
			}
		}
		return nil
	})
	return sessions, terminals
}
