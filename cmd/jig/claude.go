package main

import (
	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/exit"
	"jig/hot/fast"
	"jig/render"
)

func claudeStatusLineCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "statusline",
		Usage: "Claude Code's statusLine command: record its JSON in the status file and print a line",
		UsageText: "jig claude statusline [--preset HOST | --format TEMPLATE | --jq EXPR | --json] [--max-width N] [--shell SHELL] < statusline.json\n" +
			"jig claude statusline --then COMMAND < statusline.json\n\n" +
			"Prints the session's line (--preset ansi unless told otherwise), the same as\n" +
			"`jig session for-terminal` prints it. With --then, it records what jig needs and prints\n" +
			"what COMMAND (your own statusLine, run by /bin/sh with Claude's JSON on its stdin) prints,\n" +
			"with its exit code; a COMMAND that takes over 5s is stopped (exit 7).\n\n" +
			"example: jig claude statusline --preset plain < statusline.json   # as Claude runs it (jig install claude)\n" +
			"example: jig claude statusline --then 'npx -y ccstatusline@latest' < statusline.json",
		Flags: append(append(docFlags("the status file"), presetFlags()...),
			&cli.StringFlag{Name: "then", Usage: "print what `COMMAND` (your own statusLine) prints for Claude's JSON instead of jig's line"},
			// jig install claude's mark: it added the statusLine's refreshInterval (--uninstall removes it)
			&cli.BoolFlag{Name: "refreshed", Hidden: true}),
		Action: func(c *cli.Context) error {
			if c.IsSet("then") {
				return e.claudeStatusLineThen(c)
			}
			if !c.IsSet("preset") && !c.IsSet("format") && !c.IsSet("jq") && !c.Bool("json") {
				if err := c.Set("preset", "ansi"); err != nil {
					return err
				}
			}
			out, err := e.printer(c, render.Output{Summary: e.StdoutTTY})
			if err != nil {
				return err
			}
			if err := noArgs(c); err != nil {
				return err
			}
			return fast.StatusLine(e.Env, claude.Agent, out)
		},
	}
}

// claudeStatusLineThen is the statusLine wrapping the user's own command:
// jig records Claude's JSON, the line and the exit code are the command's.
// What goes wrong on jig's side is one line on stderr, never the line lost.
func (e *env) claudeStatusLineThen(c *cli.Context) error {
	for _, f := range []string{"preset", "format", "jq", "json", "max-width", "shell", "rate-limits"} {
		if c.IsSet(f) {
			return usageError(c, "--then prints the command's line: no --%s", f)
		}
	}
	data, err := e.readStdin(c)
	if err != nil {
		return err
	}
	if _, err := claude.Agent.StatusLine(fast.Call(e.Env, nil), data); err != nil { // said as run says it, and on: the line is theirs
		sayError(e.Stderr, c, err)
	}
	out, code, err := claude.Then(c.String("then"), data, e.Stderr)
	if err != nil {
		return err
	}
	if _, err := e.Stdout.Write(out); err != nil {
		return err
	}
	if code != 0 {
		return exit.Silent(code)
	}
	return nil
}
