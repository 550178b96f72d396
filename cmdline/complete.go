package cmdline

import (
	"strings"

	"github.com/urfave/cli/v2"

	"jig/completion"
	"jig/render"
)

// CompletionRequest is the last argument the completion scripts add to the
// words typed so far (urfave/cli's hidden flag name).
const CompletionRequest = "--generate-bash-completion"

// Complete is the words that may come next, or the one word
// completion.Files or Dirs; words is the command line without "jig" and
// the request, its last word the one being typed (maybe empty). The shell
// keeps the words that start with it. A word starting with "-" is a flag
// being typed: the command's flags (or, as --flag=, its values). After a
// flag that takes a value: its values, from values. Else the subcommands,
// or what the command takes as its next argument. It answers here rather
// than through urfave/cli, which reads os.Args and gives up on a word "--",
// the very word being completed at --<TAB>. A command or a flag comes with
// what it does after a tab, for the shells that show it (zsh, fish); each
// part is cleaned.
func Complete(app *cli.App, words []string, values func() completion.Values) []string {
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	w := walkWords(app, words)
	prefix := "" // "--preset=" when the value is typed in the flag's word
	if name, _, ok := strings.Cut(cur, "="); ok && w.line.Flag == "" && !w.flagsDone && strings.HasPrefix(cur, "-") && TakesValue(w.flags, name) {
		w.line.Flag, prefix = strings.TrimLeft(name, "-"), name+"="
	}
	var out []string
	switch {
	case w.line.Flag != "":
		out = values().Next(w.line)
	case strings.HasPrefix(cur, "-") && !w.flagsDone:
		out = flagNames(append(w.flags, cli.HelpFlag))
	case len(w.subs) > 0 && len(w.line.Args) == 0:
		for _, c := range w.subs {
			if !c.Hidden {
				out = append(out, described(c.Name, c.Usage))
			}
		}
	default:
		out = values().Next(w.line)
	}
	for i, word := range out {
		if word != completion.Files && word != completion.Dirs {
			out[i] = prefix + word
		}
	}
	if w.line.Flag != "" || !strings.HasPrefix(cur, "-") && (len(w.subs) == 0 || len(w.line.Args) > 0) {
		for i, word := range out {
			out[i] = render.Clean(word) // a value: a session's id, a tool's name
		}
	}
	return out
}

// described is a word and what it does, each cleaned, a tab between.
func described(word, usage string) string {
	word = render.Clean(word)
	if usage, _, _ = strings.Cut(usage, "\n"); usage == "" {
		return word
	}
	return word + "\t" + render.Clean(usage)
}

// walked is a command line before the word being completed, as Complete
// reads it: the command reached, its flags and subcommands.
type walked struct {
	line      completion.Line
	flags     []cli.Flag
	subs      []*cli.Command
	flagsDone bool // after "--", every word is an argument
}

// walkWords walks down the command names of words, taking note of the
// flags (with their values) and the arguments on the way.
func walkWords(app *cli.App, words []string) walked {
	w := walked{line: completion.Line{Flags: map[string]string{}}, flags: append(app.Flags, cli.VersionFlag), subs: app.Commands}
	var path []string // the command names walked
	for i := 0; i < len(words); i++ {
		word := words[i]
		switch {
		case word == "--" && !w.flagsDone:
			w.flagsDone = true
		case strings.HasPrefix(word, "-") && !w.flagsDone:
			name, value, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
			if TakesValue(w.flags, word) {
				if i+1 == len(words) {
					w.line.Flag = name
					break
				}
				i++
				value = words[i]
			}
			w.line.Flags[name] = value
		case len(w.line.Args) == 0 && FindCommand(w.subs, word) != nil:
			c := FindCommand(w.subs, word)
			path = append(path, c.Name)
			w.flags, w.subs = c.Flags, c.Subcommands
		default:
			w.line.Args = append(w.line.Args, word)
		}
	}
	w.line.Command = strings.Join(path, " ")
	return w
}

// flagNames is each name of flags as typed (-x, --name), with its usage.
func flagNames(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		usage := ""
		if d, ok := f.(cli.DocGenerationFlag); ok {
			usage = strings.ReplaceAll(d.GetUsage(), "`", "")
		}
		for _, n := range f.Names() {
			if len(n) == 1 {
				out = append(out, described("-"+n, usage))
			} else {
				out = append(out, described("--"+n, usage))
			}
		}
	}
	return out
}
