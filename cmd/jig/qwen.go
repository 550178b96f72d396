package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/agents"
	"jig/claude"
	"jig/install"
	"jig/qwen"
	qt "jig/qwen/transcript"
	"jig/status"
	"jig/transcript"
)

func init() { agents.MustRegister(qwen.Agent) } // registry.go's line, once it exists

// qwenCommand groups what jig does for Qwen Code: the hook command `jig
// install qwen` puts in its settings, and reading its transcripts.
func qwenCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "qwen",
		Usage:     "keep Qwen Code sessions' status files (hooks); read its transcripts",
		UsageText: "jig qwen COMMAND [options] [arguments]\n\nexample: jig qwen sessions --cwd .",
		Subcommands: []*cli.Command{
			qwenHookCommand(e),
			qwenSessionsCommand(e),
			qwenShowCommand(e),
		},
	}
}

func qwenHookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "update a Qwen Code session's status file from one hook event (JSON on stdin)",
		UsageText: "jig qwen hook < event.json\n\n" +
			"Installed for every event by `jig install qwen`. On PreToolUse it refuses a call of a\n" +
			"tool switched off for the session (`jig request tool run_shell_command off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig qwen hook`,
		Action: func(c *cli.Context) error {
			data, err := e.readStdin(c)
			if err == nil {
				err = fitsStatus(data)
			}
			if err != nil {
				return err
			}
			in, err := qwen.ParseInput(data)
			if err != nil {
				return status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			h := &qwen.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}
			out, err := h.Hook(in)
			return e.hookAnswer(c, out, err)
		},
	}
}

// qwenProjects is where Qwen Code keeps its transcripts.
func qwenProjects(e *env) string { return qt.ProjectsDir(qwen.Home(e.getenv)) }

func qwenSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list Qwen Code's sessions, newest first, from their transcripts' first lines",
		UsageText: "jig qwen sessions [--cwd DIR] [--json]\n\nexample: jig qwen sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			return printSessions(c, e.stdout, func() ([]*transcript.Listed, error) { return qt.List(qwenProjects(e)) })
		},
	}
}

func qwenShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show what a Qwen Code transcript says: model, usage, context, outputs, recent calls",
		UsageText: "jig qwen show FILE|ID [--json]\n\n" +
			"example: jig qwen show ~/.qwen/projects/-src-shop/chats/0648d245-c9bf-40f5-8303-3b75100bb355.jsonl",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := qt.Find(c.Args().First(), qwenProjects(e))
			if err != nil {
				return err
			}
			shown, err := qt.Show(file)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeIndented(e.stdout, shown)
			}
			qwen.PrintShow(e.stdout, shown)
			return nil
		},
	}
}

// installQwenCommand merges jig's hook into Qwen Code's settings.
func installQwenCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "qwen",
		Usage: "merge jig's hooks into Qwen Code's settings.json",
		UsageText: "jig install qwen [--uninstall]\n\n" +
			"The hooks run `jig qwen hook` (by jig's absolute path, $JIG_BIN when set) on every event of a\n" +
			"session, in $QWEN_HOME/settings.json (else ~/.qwen). Everything else in the file stays.\n\n" +
			"example: jig install qwen",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			q := install.Qwen{Getenv: e.getenv}
			edit := q.Install
			if c.Bool("uninstall") {
				edit = q.Uninstall
			}
			file, err := edit()
			if err != nil {
				return err
			}
			sayLines(e.stdout, file.Line())
			return nil
		},
	}
}
