package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/codex"
	"jig/codex/rollout"
	"jig/status"
	"jig/transcript"
)

// codexCommand groups what jig does for Codex CLI: the hook command `jig
// install codex` puts in its hooks.json, and reading its rollouts.
func codexCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "codex",
		Usage:     "keep Codex CLI sessions' status files (hooks); read its rollouts",
		UsageText: "jig codex COMMAND [options] [arguments]\n\nexample: jig codex sessions --cwd .",
		Subcommands: []*cli.Command{
			codexHookCommand(e),
			codexSessionsCommand(e),
			codexShowCommand(e),
		},
	}
}

func codexHookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "update a Codex session's status file from one hook event (JSON on stdin)",
		UsageText: "jig codex hook < event.json\n\n" +
			"Installed for every event by `jig install codex`. On PreToolUse it refuses a call of a\n" +
			"tool switched off for the session (`jig request tool exec_command off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig codex hook`,
		Action: func(c *cli.Context) error {
			data, err := e.readStdin(c)
			if err == nil {
				err = fitsStatus(data)
			}
			if err != nil {
				return err
			}
			in, err := codex.ParseInput(data)
			if err != nil {
				return status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			h := &codex.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}
			out, err := h.Hook(in)
			if len(out) > 0 {
				// a refusal stands whatever became of the write: Codex takes
				// it only from a hook that exits 0
				e.stdout.Write(out)
				if err != nil {
					sayError(e.stderr, c, err)
				}
				return nil
			}
			return err
		},
	}
}

// codexSessionsDir is where Codex keeps its rollouts.
func codexSessionsDir(getenv func(string) string) string {
	return filepath.Join(codex.Home(getenv), "sessions")
}

func codexSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list Codex's sessions, newest first, from their rollouts' first lines",
		UsageText: "jig codex sessions [--cwd DIR] [--json]\n\nexample: jig codex sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			return printSessions(c, e.stdout, func() ([]*transcript.Listed, error) { return rollout.List(codexSessionsDir(e.getenv)) })
		},
	}
}

func codexShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show what a Codex rollout says: model, effort, usage, context, outputs, recent calls",
		UsageText: "jig codex show FILE|ID [--json]\n\n" +
			"example: jig codex show ~/.codex/sessions/2026/12/01/rollout-2026-12-01T10-02-58-01a2310e-ba56-7303-8d99-8f1a592c11d4.jsonl",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := rollout.Find(c.Args().First(), codexSessionsDir(e.getenv))
			if err != nil {
				return err
			}
			shown, err := rollout.Show(file)
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
