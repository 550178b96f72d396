package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/codex"
	"jig/codex/rollout"
	"jig/render"
	"jig/status"
	"jig/transcript"
	"jig/writer"
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
			data, err := e.hookStdin(c)
			if err != nil {
				return err
			}
			in, err := codex.ParseInput(data)
			if err != nil {
				return errorf(c, exitBadInput, "stdin: %v", err)
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
					fmt.Fprintf(e.stderr, "jig: %s: %v\n", commandName(c), cutValues(err.Error()))
				}
				return nil
			}
			var refused *writer.Refused
			if errors.As(err, &refused) {
				return errorf(c, exitBadInput, "%v", err)
			} else if err != nil {
				return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
			}
			return nil
		},
	}
}

// hookStdin is the JSON an agent pipes to a hook command, which takes no
// arguments: at most what a status file may hold.
func (e *env) hookStdin(c *cli.Context) ([]byte, error) {
	if err := noArgs(c); err != nil {
		return nil, err
	}
	data, err := e.readStdin()
	if err != nil {
		return nil, errorf(c, exitBadInput, "stdin: %v", err)
	}
	if len(data) > status.MaxFileSize {
		return nil, errorf(c, exitBadInput, "stdin: larger than %d bytes", status.MaxFileSize)
	}
	return data, nil
}

// codexSessionsDir is where Codex keeps its rollouts.
func (e *env) codexSessionsDir() string {
	return filepath.Join(codex.Home(e.getenv), "sessions")
}

// codexSessions reads the head of every rollout, newest first.
func (e *env) codexSessions() ([]*rollout.Info, error) {
	files, err := filepath.Glob(filepath.Join(e.codexSessionsDir(), "*", "*", "*", "rollout-*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []*rollout.Info
	for _, f := range files {
		if in, _ := rollout.ReadInfo(f); in != nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

func codexRow(in *rollout.Info) sessionRow { return sessionRow(*in) }

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
			return listSessions(e, c, e.codexSessions, codexRow)
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
			file, err := findSession(c.Args().First(), e.codexSessionsDir(), e.codexSessions, codexRow)
			if err != nil {
				return errorf(c, exitNone, "%v", err)
			}
			r := rollout.NewReader(file)
			if err := r.Update(); err != nil {
				return errorf(c, exitBadInput, "%v", err)
			}
			if r.SessionID() == "" {
				return errorf(c, exitBadInput, "%s: not a Codex rollout: no session_meta", file)
			}
			d := r.Derive(transcript.NewRepoFinder().Repo)
			if c.Bool("json") {
				data, _ := json.MarshalIndent(struct {
					*transcript.Derived
					Window *int64   `json:"window"`
					Called []string `json:"called"`
				}{d, r.Window(), nonNil(r.Called())}, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
				return nil
			}
			printCodexShow(e, d, r)
			return nil
		},
	}
}

// printCodexShow prints a rollout's summary for a person; every value from
// the file goes through render.Clean.
func printCodexShow(e *env, d *transcript.Derived, r *rollout.Reader) {
	cl := render.Clean
	w := render.NewColumns(e.stdout)
	printShowHead(w, d)
	printUsage(w, d, "none (the rollout has no prices)", "unknown until the next response")
	if win := r.Window(); win != nil {
		fmt.Fprintf(w, "window\t%d tokens\n", *win)
	}
	fmt.Fprintf(w, "tools called\t%s\n", cl(dash(strings.Join(r.Called(), ", "))))
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	printOutputsAndCalls(e, d)
}
