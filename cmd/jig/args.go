package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// normalizeArgs moves a command's flags ahead of its arguments, so that
// `jig session for-terminal %3 --json` means what it says: urfave/cli v2
// stops parsing flags at the first argument and would take `--json` as an
// argument, silently. A flag that takes a value keeps its value; `--` ends
// the flags and is kept; unknown flags move too, so the parser names them. A
// value flag with nothing after it is an error here: moved ahead of the
// arguments, it would silently take one of them as its value.
func normalizeArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	// Shell completion asks with a last argument urfave/cli looks for there
	// only: it stays last.
	if n := len(args) - 1; args[n] == "--"+cli.BashCompletionFlag.Names()[0] {
		out, err := normalizeArgs(app, args[:n:n])
		return append(out, args[n]), err
	}
	out, path, flags, rest := walkCommands(app, args)
	moved, positional, err := moveFlags(flags, rest, path)
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
// flags of the command reached and the rest of args.
func walkCommands(app *cli.App, args []string) (out, path []string, flags []cli.Flag, rest []string) {
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
			if takesValue(flags, tok) && len(rest) > 0 {
				out = append(out, rest[0])
				rest = rest[1:]
			}
			continue
		}
		cmd := findCommand(subs, tok)
		if cmd == nil {
			break
		}
		out = append(out, tok)
		path = append(path, cmd.Name)
		rest = rest[1:]
		flags, subs = cmd.Flags, cmd.Subcommands
		if len(subs) == 0 {
			break
		}
	}
	return out, path, flags, rest
}

// moveFlags parts the command's words into its flags (with their values)
// and its arguments; `--` and all after it are arguments.
func moveFlags(flags []cli.Flag, rest, path []string) (moved, positional []string, err error) {
	for i := 0; i < len(rest); i++ {
		tok := rest[i]
		switch {
		case tok == "--":
			return moved, append(positional, rest[i:]...), nil
		case strings.HasPrefix(tok, "-") && tok != "-":
			moved = append(moved, tok)
			if !takesValue(flags, tok) {
				continue
			}
			if i+1 == len(rest) {
				if len(positional) == 0 {
					continue // nothing to take: the parser reports it
				}
				return nil, nil, exitf(exitUsage, "%s: flag needs an argument: %s", strings.Join(path, " "), tok)
			}
			i++
			moved = append(moved, rest[i])
		default:
			positional = append(positional, tok)
		}
	}
	return moved, positional, nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether tok is a known flag that wants the next
// argument as its value (`--session S`, not `--session=S` or `--json`).
func takesValue(flags []cli.Flag, tok string) bool {
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
