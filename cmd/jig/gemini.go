package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/agents"
	"jig/claude"
	"jig/gemini"
	"jig/gemini/chat"
	"jig/status"
	"jig/transcript"
)

// Gemini CLI's one line in the agent registry (cmd/jig has no registry.go
// of its own yet).
func init() { agents.MustRegister(gemini.Agent) }

// geminiCommand groups what jig does for Gemini CLI: the hook command `jig
// install gemini` puts in its settings.json, and reading its chat records.
func geminiCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "gemini",
		Usage:     "keep Gemini CLI sessions' status files (hooks); read its chat records",
		UsageText: "jig gemini COMMAND [options] [arguments]\n\nexample: jig gemini sessions --cwd .",
		Subcommands: []*cli.Command{
			geminiHookCommand(e),
			geminiSessionsCommand(e),
			geminiShowCommand(e),
		},
	}
}

func geminiHookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "update a Gemini CLI session's status file from one hook event (JSON on stdin)",
		UsageText: "jig gemini hook < event.json\n\n" +
			"Installed for every event but AfterModel by `jig install gemini`. On BeforeTool it refuses a\n" +
			"call of a tool switched off for the session (`jig request tool run_shell_command off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"BeforeAgent","cwd":"/src"}' | jig gemini hook`,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			in, err := gemini.ReadInput(e.stdin)
			if err != nil {
				return status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			h := &gemini.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}
			out, err := h.Hook(in)
			return e.hookAnswer(c, out, err)
		},
	}
}

func geminiSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list Gemini CLI's sessions, newest first, from their chat records' first lines",
		UsageText: "jig gemini sessions [--cwd DIR] [--json]\n\nexample: jig gemini sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions of the project `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			return printSessions(c, e.stdout, func() ([]*transcript.Listed, error) { return chat.List(chat.Home(e.getenv)) })
		},
	}
}

func geminiShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show what a Gemini CLI chat record says: model, usage, context, outputs, recent calls",
		UsageText: "jig gemini show FILE|ID [--json]\n\n" +
			"example: jig gemini show ~/.gemini/tmp/shop/chats/session-2026-12-01T20-21-a470ab55.jsonl",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := chat.Find(c.Args().First(), chat.Home(e.getenv))
			if err != nil {
				return err
			}
			shown, err := chat.Show(file)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeIndented(e.stdout, shown)
			}
			shown.Print(e.stdout)
			return nil
		},
	}
}
