package main

import (
	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/install"
	"jig/qwen"
	"jig/transcript"
)

// qwenCommand is what jig does for Qwen Code: the hook `jig install qwen`
// puts in its settings, and reading its transcripts.
func qwenCommand(e *env) *cli.Command {
	asJSON := &cli.BoolFlag{Name: "json", Usage: "print JSON"}
	return &cli.Command{Name: "qwen", Usage: "keep Qwen Code sessions' status files (hooks); read its transcripts",
		UsageText: "jig qwen COMMAND [options] [arguments]\n\nexample: jig qwen sessions --cwd .", Subcommands: []*cli.Command{
			{Name: "hook", Before: noArgs, Usage: "update a Qwen Code session's status file from one hook event (JSON on stdin)",
				UsageText: "jig qwen hook < event.json\n\nInstalled by `jig install qwen`; on PreToolUse it refuses a call switched off.\n\n" +
					`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig qwen hook`,
				Action: qwenHook(e)},
			{Name: "sessions", Usage: "list Qwen Code's sessions, newest first, from their transcripts' heads",
				UsageText: "jig qwen sessions [--cwd DIR] [--json]\n\nexample: jig qwen sessions --cwd . --json", Flags: []cli.Flag{&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"}, asJSON},
				Action: func(c *cli.Context) error {
					return printSessions(c, e.stdout, func() ([]*transcript.Listed, error) { return qwen.Sessions(e.getenv) })
				}},
			{Name: "show", Usage: "show what a Qwen Code transcript says: model, usage, context, outputs, recent calls",
				UsageText: "jig qwen show FILE|ID [--json]\n\nexample: jig qwen show ~/.qwen/projects/-home-me-src/chats/0648d245-c9bf-40f5-8303-3b75100bb355.jsonl", Flags: []cli.Flag{asJSON},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError(c, "takes one FILE or session ID")
					}
					shown, err := qwen.Show(c.Args().First(), e.getenv)
					if err == nil && c.Bool("json") {
						return writeIndented(e.stdout, shown)
					} else if err == nil {
						shown.Print(e.stdout)
					}
					return err
				}},
		}}
}

// qwenHook is `jig qwen hook`: one event, its answer printed.
func qwenHook(e *env) cli.ActionFunc {
	return func(c *cli.Context) error {
		dir, err := e.stateDir()
		if err != nil {
			return err
		}
		host, _ := e.hostname()
		out, err := (&qwen.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}).Stdin(e.stdin)
		return e.hookAnswer(c, out, err)
	}
}

// installQwenCommand merges jig's hook into Qwen Code's settings.json.
func installQwenCommand(e *env) *cli.Command {
	return &cli.Command{Name: "qwen", Usage: "merge jig's hooks into Qwen Code's settings.json ($QWEN_HOME, else ~/.qwen)",
		UsageText: "jig install qwen [--uninstall]\n\nexample: jig install qwen", Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}},
		Before: noArgs, Action: func(c *cli.Context) error {
			f, err := install.Qwen{Getenv: e.getenv, Uninstall: c.Bool("uninstall")}.Edit()
			if err == nil {
				sayLines(e.stdout, f.Line())
			}
			return err
		}}
}
