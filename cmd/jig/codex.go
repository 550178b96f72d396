package main

import (
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/codex"
	"jig/codex/rollout"
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
			codexRollouts(e).sessionsCommand(e),
			codexRollouts(e).showCommand(e),
		},
	}
}

func codexHookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "hook", Before: noArgs,
		Usage: "update a Codex session's status file from one hook event (JSON on stdin)",
		UsageText: "jig codex hook < event.json\n\n" +
			"Installed for every event by `jig install codex`. On PreToolUse it refuses a call of a\n" +
			"tool switched off for the session (`jig request tool exec_command off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig codex hook`,
		Action: func(c *cli.Context) error {
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			h := &codex.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}
			out, err := h.Stdin(e.stdin)
			return e.hookAnswer(c, out, err)
		},
	}
}

// codexSessionsDir is where Codex keeps its rollouts.
func codexSessionsDir(getenv func(string) string) string {
	return filepath.Join(codex.Home(getenv), "sessions")
}

// codexRollouts are Codex's rollouts as `jig codex sessions` and `show` read them.
func codexRollouts(e *env) records {
	dir := codexSessionsDir(e.getenv)
	return records{agent: "codex", label: "Codex", kind: "rollout", says: "model, effort, usage, context, outputs, recent calls",
		example: "~/.codex/sessions/2026/12/01/rollout-2026-12-01T10-02-58-01a2310e-ba56-7303-8d99-8f1a592c11d4.jsonl",
		list:    func() ([]*transcript.Listed, error) { return rollout.List(dir) },
		find:    func(arg string) (string, error) { return rollout.Find(arg, dir) },
		show: func(file string) (any, func(io.Writer), error) {
			shown, err := rollout.Show(file)
			if err != nil {
				return nil, nil, err
			}
			return shown, shown.Print, nil
		}}
}
