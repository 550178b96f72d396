package codex

import (
	"errors"
	"path/filepath"
	"time"

	"jig/agents"
	"jig/agents/peer"
	"jig/codex/rollout"
	"jig/hook"
	"jig/serve/conversation"
	"jig/status"
)

// Agent is Codex CLI in jig's registry of agents, with its commands:
// `jig codex hook|sessions|show`, `jig install codex`.
var Agent = peer.Agent{
	Agent: agents.Agent{ID: status.AgentCodex, Label: "Codex", Herdr: "codex"},
	Name:  "codex", Usage: "keep Codex CLI sessions' status files (hooks); read its rollouts",
	Hook: &peer.Hook{Run: runHook, Usage: "update a Codex session's status file from one hook event (JSON on stdin)",
		UsageText: "jig codex hook < event.json\n\n" +
			"Installed for every event by `jig install codex`. On PreToolUse it refuses a call of a\n" +
			"tool switched off for the session (`jig request tool exec_command off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig codex hook`},
	Records: &peer.Records{Kind: "rollout", Says: "model, effort, usage, context, outputs, recent calls",
		Example: "~/.codex/sessions/2026/12/01/rollout-2026-12-01T10-02-58-01a2310e-ba56-7303-8d99-8f1a592c11d4.jsonl",
		List:    func(getenv func(string) string) ([]*rollout.Info, error) { return rollout.List(sessionsDir(getenv)) },
		Show: func(arg string, getenv func(string) string) (peer.Shown, error) {
			file, err := rollout.Find(arg, sessionsDir(getenv))
			if err != nil {
				return nil, err
			}
			return rollout.Show(file)
		}},
	Conversation: func(func(string) string, func() time.Time) conversation.Reader { return Conversation{} },
	Install: &peer.Install{Run: runInstall, Usage: "merge jig's hooks into Codex CLI's hooks.json and trust them in its config.toml",
		UsageText: "jig install codex [--uninstall]\n\n" +
			"The hooks run `jig codex hook` (by jig's absolute path) on every event of a session, in\n" +
			"$CODEX_HOME/hooks.json (else ~/.codex); config.toml records them as trusted, as Codex does.\n" +
			"Everything else in both files stays as it is.\n\n" +
			"example: jig install codex"},
}

// sessionsDir is where Codex keeps its rollouts.
func sessionsDir(getenv func(string) string) string {
	return filepath.Join(Home(getenv), "sessions")
}

// runHook is one event of `jig codex hook`.
func runHook(c peer.Call) ([]byte, error) {
	dir, err := c.Dir() // none: the kit refuses every call, fail closed
	return (&Hooks{Dir: dir, NoDir: err, Now: c.Now, Getenv: c.Getenv, Host: c.Host, PID: hook.Parent()}).Stdin(c.Stdin)
}

// runInstall is `jig install codex`: a file jig refuses to edit is bad input.
func runInstall(in peer.Installing) (peer.Installed, error) {
	res, err := Install(Home(in.Getenv), in.Bin, in.Uninstall)
	if bad := (*BadFileError)(nil); errors.As(err, &bad) {
		return peer.Installed{}, status.Mark(status.ErrBadInput, err)
	} else if err != nil {
		return peer.Installed{}, err
	}
	return peer.Installed{Changed: res.Changed, Unchanged: res.Unchanged, Notes: res.Notes}, nil
}
