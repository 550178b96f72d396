// Package cmdline is how jig reads its command line, over urfave/cli v2:
// flags after the arguments, one-line flag errors with a suggestion, flags
// whose value is optional, the words a shell may complete, and the version
// line. It knows no command: cmd/jig declares them and hands them in.
package cmdline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/status"
)

// Normalize moves a command's flags ahead of its arguments, so that
// `jig session for-terminal %3 --json` means what it says: urfave/cli v2
// stops parsing flags at the first argument and would take `--json` as an
// argument, silently. A flag that takes a value keeps its value; `--` ends
// the flags and is kept; unknown flags move too, so the parser names them. A
// value flag with nothing after it is an error here: moved ahead of the
// arguments, it would silently take one of them as its value. So is an
// empty argument, or an empty value of a flag that takes an ID (emptyWord):
// a script's unset variable must not read as "not given".
func Normalize(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	// Shell completion asks with a last argument urfave/cli looks for there
	// only: it stays last.
	if n := len(args) - 1; args[n] == "--"+cli.BashCompletionFlag.Names()[0] {
		out, err := Normalize(app, args[:n:n])
		return append(out, args[n]), err
	}
	out, path, cmd, rest := walkCommands(app, args)
	flags := app.Flags
	if cmd != nil {
		flags = cmd.Flags
	}
	moved, positional, err := moveFlags(cmd, flags, rest, path)
	if err != nil {
		return nil, err
	}
	for _, tok := range moved {
		if tok == "-h" || tok == "--help" || tok == "-help" {
			// Help, whatever else was asked: urfave/cli would take an
			// argument after --help for a help topic and fail.
			return append(out, "--help"), nil
		}
	}
	out = append(out, moved...)
	return append(out, positional...), nil
}

// walkCommands walks down the command names of args; flags before them
// stay where they are. It returns what it walked (out), the names, the
// command reached (nil: none) and the rest of args.
func walkCommands(app *cli.App, args []string) (out, path []string, cmd *cli.Command, rest []string) {
	out, rest = []string{args[0]}, args[1:]
	flags, subs := app.Flags, app.Commands
	for len(rest) > 0 {
		tok := rest[0]
		if strings.HasPrefix(tok, "-") {
			if tok == "--" {
				break
			}
			out = append(out, tok)
			rest = rest[1:]
			if TakesValue(flags, tok) && len(rest) > 0 {
				out = append(out, rest[0])
				rest = rest[1:]
			}
			continue
		}
		next := FindCommand(subs, tok)
		if next == nil {
			break
		}
		cmd = next
		out = append(out, tok)
		path = append(path, cmd.Name)
		rest = rest[1:]
		flags, subs = cmd.Flags, cmd.Subcommands
		if len(subs) == 0 {
			break
		}
	}
	return out, path, cmd, rest
}

// moveFlags parts the command's words into its flags (with their values)
// and its arguments; `--` and all after it are arguments. An empty word
// where an argument or an ID goes is refused (emptyWord).
func moveFlags(cmd *cli.Command, flags []cli.Flag, rest, path []string) (moved, positional []string, err error) {
	for i := 0; i < len(rest); i++ {
		tok := rest[i]
		switch {
		case tok == "--":
			for n, w := range rest[i+1:] {
				if w == "" {
					return nil, nil, emptyWord(path, ArgName(cmd, path, len(positional)+n))
				}
			}
			return moved, append(positional, rest[i:]...), nil
		case strings.HasPrefix(tok, "-") && tok != "-":
			moved = append(moved, tok)
			if name, value, ok := strings.Cut(tok, "="); ok && value == "" && TakesID(flags, name) {
				return nil, nil, emptyWord(path, name+" ID")
			}
			if !TakesValue(flags, tok) {
				continue
			}
			if i+1 == len(rest) {
				if len(positional) == 0 {
					continue // nothing to take: the parser reports it
				}
				return nil, nil, Usagef("%s: flag needs an argument: %s", strings.Join(path, " "), tok)
			}
			i++
			if rest[i] == "" && TakesID(flags, tok) {
				return nil, nil, emptyWord(path, tok+" ID")
			}
			moved = append(moved, rest[i])
		case tok == "":
			return nil, nil, emptyWord(path, ArgName(cmd, path, len(positional)))
		default:
			positional = append(positional, tok)
		}
	}
	return moved, positional, nil
}

// emptyWord is the usage error for an empty argument or ID: what is empty
// named as empty, whichever command takes it.
func emptyWord(path []string, what string) error {
	return Usagef("%s: %s is empty", strings.Join(path, " "), what)
}

// ArgName is what the command's usage line calls its argument n (ID,
// FILE|ID, KEY), "the argument" when it names none.
func ArgName(cmd *cli.Command, path []string, n int) string {
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return "the command"
	}
	line, _, _ := strings.Cut(cmd.UsageText, "\n")
	words := strings.Fields(line)
	var names []string
	for _, w := range words[min(len(words), 1+len(path)):] { // after "jig" and the command path
		if strings.HasPrefix(strings.TrimLeft(w, "["), "-") {
			break // the flags start
		}
		if w = strings.Trim(w, "[]"); w != "" && w != "|" {
			names = append(names, w)
		}
	}
	if n < len(names) {
		return names[n]
	}
	return "the argument"
}

// FindCommand is the command of cmds that name names, nil when none does.
func FindCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// TakesID reports whether tok names a flag whose value is an ID: its usage
// calls the value `ID` (--session, --terminal).
func TakesID(flags []cli.Flag, tok string) bool {
	name := strings.TrimLeft(tok, "-")
	for _, f := range flags {
		if d, ok := f.(cli.DocGenerationFlag); ok && slices.Contains(f.Names(), name) {
			_, quoted, ok := strings.Cut(d.GetUsage(), "`")
			id, _, closed := strings.Cut(quoted, "`")
			return ok && closed && id == "ID"
		}
	}
	return false
}

// TakesValue reports whether tok is a known flag that wants the next
// argument as its value (`--session S`, not `--session=S` or `--json`).
func TakesValue(flags []cli.Flag, tok string) bool {
	if strings.Contains(tok, "=") {
		return false
	}
	name := strings.TrimLeft(tok, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if v, ok := f.(cli.DocGenerationFlag); ok {
				return v.TakesValue()
			}
			return false
		}
	}
	return false
}

// usageError is an error in how a command was called, in its own words:
// of kind status.ErrUsage.
type usageError string

func (e usageError) Error() string      { return string(e) }
func (usageError) Is(target error) bool { return target == status.ErrUsage }

// Usagef is an error of kind status.ErrUsage, saying what format says.
func Usagef(format string, args ...any) error {
	return usageError(fmt.Sprintf(format, args...))
}
