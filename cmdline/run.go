package cmdline

import (
	"flag"
	"io"

	"github.com/urfave/cli/v2"
)

// Run runs the (normalized) command line args as app.Run does. A leaf
// command that urfave/cli would only parse and act on is called directly:
// its flags, applied to a flag.FlagSet as urfave/cli applies them, parse its
// words, and its action gets the context urfave/cli would build. The
// command's definition stays the one source of its flags; what is skipped is
// urfave/cli's walk over them, which matches every flag's name against every
// other's through a regexp (runFlagActions, IsSet): about 0.6 M instructions,
// as much as the rest of a status line's run. Anything else — help, a flag
// error, a required or acting flag, aliases, Before or After, flags before
// the command's name — goes to app.Run, which says it as it always did.
func Run(app *cli.App, args []string) error {
	if c := direct(app, args); c != nil {
		return c.Command.Action(c)
	}
	return app.Run(args)
}

// direct is the context of a plain leaf command's run, nil when args need
// urfave/cli's own.
func direct(app *cli.App, args []string) *cli.Context {
	if len(args) < 2 || app.Before != nil || app.After != nil || app.UseShortOptionHandling || len(app.Flags) > 0 {
		return nil
	}
	out, path, cmd, rest := walkCommands(app, args)
	if cmd == nil || len(out) != 1+len(path) || cmd.Action == nil || len(cmd.Subcommands) > 0 {
		return nil
	}
	for sub, i := app.Commands, 0; i < len(path); i++ {
		c := FindCommand(sub, path[i])
		if c.Before != nil || c.After != nil || c.SkipFlagParsing || c.UseShortOptionHandling ||
			(c != cmd && len(c.Flags) > 0) {
			return nil
		}
		sub = c.Subcommands
	}
	set := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range cmd.Flags {
		if !plainFlag(f) || f.Apply(set) != nil {
			return nil
		}
	}
	if set.Parse(rest) != nil {
		return nil // -h, --help and every error: urfave/cli's
	}
	c := cli.NewContext(app, set, nil)
	c.Command = cmd
	if cmd.HelpName == "" {
		cmd.HelpName = app.Name
		for _, n := range path {
			cmd.HelpName += " " + n
		}
	}
	return c
}

// plainFlag is a flag urfave/cli does nothing with after parsing: one
// name (no aliases to copy values between), not required, no action.
func plainFlag(f cli.Flag) bool {
	plain := func(aliases []string, required, acts bool) bool { return len(aliases) == 0 && !required && !acts }
	switch f := f.(type) {
	case *cli.BoolFlag:
		return plain(f.Aliases, f.Required, f.Action != nil || f.Count != nil)
	case *cli.StringFlag:
		return plain(f.Aliases, f.Required, f.Action != nil)
	case *cli.IntFlag:
		return plain(f.Aliases, f.Required, f.Action != nil)
	case *cli.DurationFlag:
		return plain(f.Aliases, f.Required, f.Action != nil)
	}
	return false // another kind: urfave/cli runs it
}
