package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/claude"
	cct "jig/claude/transcript"
	"jig/render"
	"jig/status"
	"jig/transcript"
)

// claudeCommand groups what jig does for Claude Code: the hook and
// statusLine commands `jig install claude` puts in its settings, and
// reading its transcripts.
func claudeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "claude",
		Usage:     "keep Claude Code sessions' status files (hooks, statusLine); read its transcripts",
		UsageText: "jig claude COMMAND [options] [arguments]\n\nexample: jig claude sessions --cwd .",
		Subcommands: []*cli.Command{
			claudeHookCommand(e),
			claudeStatusLineCommand(e),
			claudeTranscripts(e).sessionsCommand(e),
			claudeTranscripts(e).showCommand(e),
		},
	}
}

// claudeWriter reads Claude's JSON, which came on stdin, and makes the
// session's writer.
func (e *env) claudeWriter(data []byte) (*claude.Writer, *claude.Input, error) {
	if err := fitsStatus(data); err != nil {
		return nil, nil, err
	}
	in, err := claude.ParseInput(data)
	if err != nil {
		return nil, nil, status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
	}
	dir, err := e.stateDir()
	if err != nil {
		return nil, nil, err
	}
	host, _ := e.hostname()
	return &claude.Writer{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.ClaudePID(e.getenv)}, in, nil
}

func claudeHookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "hook", Before: noArgs,
		Usage: "update a Claude Code session's status file from one hook event (JSON on stdin)",
		UsageText: "jig claude hook < event.json\n\n" +
			"Installed for every event by `jig install claude`. On PreToolUse it refuses a call of a\n" +
			"tool or skill switched off for the session (`jig request tool NAME off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig claude hook`,
		Action: func(c *cli.Context) error {
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			host, _ := e.hostname()
			w := &claude.Writer{Dir: dir, Now: e.now, Getenv: e.getenv, Host: host, PID: claude.ClaudePID(e.getenv)}
			out, err := w.HookStdin(e.stdin)
			return e.hookAnswer(c, out, err)
		},
	}
}

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
			out, err := e.printer(c, render.Output{Summary: e.stdoutTTY})
			if err != nil {
				return err
			}
			data, err := e.readStdin(c)
			if err != nil {
				return err
			}
			w, in, err := e.claudeWriter(data)
			if err != nil {
				return err
			}
			s, err := w.StatusLine(in)
			if err != nil {
				return err
			}
			return out.Status(e.stdout, s)
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
	w, in, err := e.claudeWriter(data)
	if err == nil {
		_, err = w.StatusLine(in)
	}
	if err != nil { // said as run says it, and on: the line is theirs
		sayError(e.stderr, c, err)
	}
	out, code, err := claude.Then(c.String("then"), data, e.stderr)
	if err != nil {
		return err
	}
	if _, err := e.stdout.Write(out); err != nil {
		return err
	}
	if code != 0 {
		return silent(code)
	}
	return nil
}

// claudeProjects is where Claude keeps its transcripts.
func claudeProjects(getenv func(string) string) string {
	return filepath.Join(claude.AgentDir(getenv), "projects")
}

// claudeTranscripts are Claude's transcripts as `jig claude sessions` and
// `show` read them.
func claudeTranscripts(e *env) records {
	dir := claudeProjects(e.getenv)
	return records{agent: "claude", label: "Claude Code", kind: "transcript", says: "model, usage, cost, outputs, recent calls, tools",
		example: "~/.claude/projects/-home-me-src/6d5df00b-a7f0-4f9c-8397-89b978df7afb.jsonl",
		list:    func() ([]*transcript.Listed, error) { return cct.List(dir) },
		find:    func(arg string) (string, error) { return cct.Find(arg, dir) },
		show: func(file string) (any, func(io.Writer), error) {
			shown, err := cct.Show(file)
			if err != nil {
				return nil, nil, err
			}
			return shown, shown.Print, nil
		}}
}

// sessionsCommand is `jig AGENT sessions`: the agent's sessions, newest
// first, read by list; from says where they are read from.
func sessionsCommand(e *env, agent, whose, from string, list func() ([]*transcript.Listed, error)) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list " + whose + " sessions, newest first, " + from,
		UsageText: "jig " + agent + " sessions [--cwd DIR] [--json]\n\nexample: jig " + agent + " sessions --cwd . --json",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"}, &cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action:    func(c *cli.Context) error { return printSessions(c, e.stdout, list) },
	}
}

// printSessions is a sessions command of an agent: its transcripts as
// list gives them, those started in --cwd, as JSON or a table; exit 1
// when there is none.
func printSessions(c *cli.Context, w io.Writer, list func() ([]*transcript.Listed, error)) error {
	if err := noArgs(c); err != nil {
		return err
	}
	infos, err := list()
	if err != nil {
		return err
	}
	if infos, err = inCWD(c, infos, func(in *transcript.Listed) string { return in.CWD }); err != nil {
		return err
	}
	if c.Bool("json") {
		writeIndented(w, nonNil(infos))
	} else if len(infos) > 0 {
		render.AgentSessions(w, infos)
	}
	if len(infos) == 0 {
		return silent(exitNone)
	}
	return nil
}

// nonNil is l, or an empty list for JSON's [] rather than null.
func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}
