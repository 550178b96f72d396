package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/cmdline"
	"jig/exit"
	"jig/render"
)

// run is jig's whole life: parse, act, map the error to an exit code. It
// prints at most one error line, on stderr, prefixed with the command.
func run(args []string, e *env) int {
	app := newApp(e, args...)
	args, err := cmdline.Prepare(app, args) // jig help CMD, what jig board sent over ssh
	if err != nil {
		exit.Say(e.Stderr, err)
		return exit.Usage
	}
	e.args = args
	if n := len(args); n > 1 && args[n-1] == cmdline.CompletionRequest {
		for _, w := range cmdline.Complete(app, args[1:n-1], e.completionValues) {
			fmt.Fprintln(e.Stdout, w) // cleaned, a description after a tab
		}
		return exit.OK
	}
	args, err = cmdline.Normalize(app, args)
	if err == nil {
		err = cmdline.Run(app, args)
	}
	if err != nil {
		exit.Say(e.Stderr, err)
	}
	return exit.Code(err)
}

// newApp is jig's app; given the command line, with only the commands it
// needs (commands).
func newApp(e *env, args ...string) *cli.App {
	app := &cli.App{
		Name:                 "jig",
		Usage:                "see and steer the coding agents running in your terminals",
		UsageText:            "jig COMMAND [options] [arguments]    (jig help COMMAND: its options)\n\nfirst: jig demo --live --agents 3, and in another pane jig board\nexample: jig session for-terminal %3 --format '{{short .model}} {{percent .context.percent}}'",
		Reader:               e.Stdin,
		Writer:               e.Stdout,
		ErrWriter:            e.Stderr,
		EnableBashCompletion: true,
		Suggest:              true,
		HideHelpCommand:      true,
		ExitErrHandler:       func(*cli.Context, error) {}, // run maps errors to codes
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return exit.Errorf(exit.Usage, "%s", cmdline.FlagError(err, c.App.Flags, e.args))
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				typed := c.Args().First()
				return exit.Errorf(exit.Usage, "unknown command %q%s; see jig --help", typed, cmdline.SuggestCommand(c.App.Commands, typed))
			}
			return cli.ShowAppHelp(c)
		},
		Commands: commands(e, args),
		Version:  cmdline.Version(),
	}
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, c.App.Version) }
	setUsageErrors(app.Commands, e)
	return app
}

// setUsageErrors makes every command report a usage error as one line and
// exit 2, instead of urfave's help dump and a generic failure, and name
// itself in every error it returns.
func setUsageErrors(cmds []*cli.Command, e *env) {
	for _, c := range cmds {
		if act := c.Action; act != nil {
			c.Action = func(c *cli.Context) error { return named(c, act(c)) }
		}
		if c.OnUsageError == nil {
			c.OnUsageError = func(c *cli.Context, err error, _ bool) error {
				return usageError(c, "%s", cmdline.FlagError(err, c.Command.Flags, e.args))
			}
		}
		// `--help` is the one way to ask: no command lists or completes a
		// "help" command.
		c.HideHelpCommand = true
		if len(c.Subcommands) > 0 && c.Action == nil {
			c.Action = func(c *cli.Context) error {
				if c.NArg() > 0 {
					typed := c.Args().First()
					return usageError(c, "unknown command %q%s; see jig %s --help", typed, cmdline.SuggestCommand(c.Command.Subcommands, typed), commandName(c))
				}
				return cli.ShowSubcommandHelp(c)
			}
		}
		setUsageErrors(c.Subcommands, e)
	}
}

// commandName is the command's full name without "jig", for error lines.
func commandName(c *cli.Context) string {
	return strings.TrimPrefix(c.Command.HelpName, "jig ")
}

// usageError is an error in how the command was called.
func usageError(c *cli.Context, format string, args ...any) error {
	return exit.Errorf(exit.Usage, "%s: %s", commandName(c), fmt.Sprintf(format, args...))
}

// noArgs refuses arguments to a command that takes none.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError(c, "takes no arguments, got %q", c.Args().First())
	}
	return nil
}

// needSession is the command line of the session-side commands: --session
// and no arguments.
func needSession(c *cli.Context, id string) error {
	if id == "" {
		return usageError(c, "--session is required")
	}
	return noArgs(c)
}

// sayError says err on w as run says a command's error, for a command
// that goes on after it.
func sayError(w io.Writer, c *cli.Context, err error) {
	exit.Say(w, named(c, err))
}

// warnf says on stderr, cleaned, what a command skipped and went on without.
func (e *env) warnf(c *cli.Context, format string, args ...any) {
	fmt.Fprintf(e.Stderr, "jig: %s: %s\n", commandName(c), render.Clean(fmt.Sprintf(format, args...)))
}
