package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/gemini"
	"jig/gemini/chat"
	"jig/install"
	"jig/status"
	"jig/transcript"
)

// geminiCommand groups what jig does for Gemini CLI: the hook `jig install
// gemini` puts in its settings.json, and reading its chat records.
func geminiCommand(e *env) *cli.Command {
	home := chat.Home(e.getenv)
	r := records{agent: "gemini", label: "Gemini CLI", kind: "chat record", says: "model, usage, context, outputs, recent calls",
		example: "~/.gemini/tmp/shop/chats/session-2026-12-01T20-21-a470ab55.jsonl",
		list:    func() ([]*transcript.Listed, error) { return chat.List(home) },
		find:    func(arg string) (string, error) { return chat.Find(arg, home) },
		show: func(file string) (any, func(io.Writer), error) {
			shown, err := chat.Show(file)
			return shown, shown.Print, err
		}}
	hook := &cli.Command{Name: "hook", Before: noArgs, Usage: "update a Gemini CLI session's status file from one hook event (JSON on stdin)",
		UsageText: "jig gemini hook < event.json\n\nInstalled by `jig install gemini`. On BeforeTool it refuses a call of a tool switched\n" +
			`off (jig request tool NAME off). example: echo '{"session_id":"s1","hook_event_name":"BeforeAgent"}' | jig gemini hook`,
		Action: func(c *cli.Context) error {
			in, err := gemini.ReadInput(e.stdin)
			if err != nil { // a BeforeTool jig cannot read is refused
				return e.hookAnswer(c, gemini.Refusal(in), status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err)))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			out, err := (&gemini.Hooks{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.HookParent()}).Hook(in)
			return e.hookAnswer(c, out, err)
		}}
	return &cli.Command{Name: "gemini", Usage: "keep Gemini CLI sessions' status files (hooks); read its chat records",
		UsageText:   "jig gemini COMMAND [options] [arguments]\n\nexample: jig gemini sessions --cwd .",
		Subcommands: []*cli.Command{hook, r.sessionsCommand(e), r.showCommand(e)}}
}

// installGeminiCommand merges jig's hook groups into Gemini CLI's settings.json.
func installGeminiCommand(e *env) *cli.Command {
	return &cli.Command{Name: "gemini", Usage: "merge jig's hooks into Gemini CLI's settings.json",
		UsageText: "jig install gemini [--uninstall]\n\nThe hooks run `jig gemini hook` by jig's absolute path, on every event but AfterModel,\n" +
			"in $GEMINI_CLI_HOME/.gemini/settings.json (else ~/.gemini). Everything else stays.\n\nexample: jig install gemini",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}}, Before: noArgs,
		Action: func(c *cli.Context) error {
			bin, err := install.JigPath(e.getenv)
			path, perr := gemini.SettingsPath(e.getenv)
			if err != nil || perr != nil {
				return errors.Join(err, perr)
			}
			f, err := install.EditFile(path, gemini.Change(bin, c.Bool("uninstall")))
			if err == nil {
				sayLines(e.stdout, f.Line())
			}
			return err // a settings file jig refuses to edit is bad input
		}}
}
