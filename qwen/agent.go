package qwen

import (
	"errors"
	"path/filepath"

	"jig/agents"
	"jig/agents/peer"
	"jig/hook"
)

// Agent is Qwen Code in the registry of agents, with its commands: `jig
// qwen hook|sessions|show`, `jig install qwen`. Herdr has no label for
// it: its src/detect/mod.rs agent_label knows Pi, Claude, Codex, Gemini,
// OpenCode and others, not Qwen.
var Agent = peer.Agent{
	Agent: agents.Agent{ID: ID, Label: "Qwen Code", Herdr: ""},
	Name:  "qwen", Usage: "keep Qwen Code sessions' status files (hooks); read its transcripts",
	Hook: &peer.Hook{Run: runHook, Usage: "update a Qwen Code session's status file from one hook event (JSON on stdin)",
		UsageText: "jig qwen hook < event.json\n\nInstalled by `jig install qwen`; on PreToolUse it refuses a call switched off.\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig qwen hook`},
	Records: &peer.Records{Kind: "transcript", Says: "model, usage, context, outputs, recent calls",
		Example: "~/.qwen/projects/-home-me-src/chats/0648d245-c9bf-40f5-8303-3b75100bb355.jsonl",
		List:    Sessions,
		Show:    func(arg string, getenv func(string) string) (peer.Shown, error) { return Show(arg, getenv) }},
	Install: &peer.Install{Settings: SettingsPath, Change: Change,
		Usage: "merge jig's hooks into Qwen Code's settings.json ($QWEN_HOME, else ~/.qwen)", UsageText: "jig install qwen [--uninstall]\n\nexample: jig install qwen"},
}

// ID is a Qwen Code session's `agent` in its status file.
const ID = "qwen-code"

// runHook is one event of `jig qwen hook`.
func runHook(c peer.Call) ([]byte, error) {
	dir, err := c.Dir() // none: the kit refuses every call, fail closed
	return (&Hooks{Dir: dir, NoDir: err, Now: c.Now, Getenv: c.Getenv, Host: c.Host, PID: hook.Parent()}).Stdin(c.Stdin)
}

// SettingsPath is Qwen Code's user settings, which `jig install qwen`
// edits: $QWEN_HOME/settings.json, else ~/.qwen/settings.json.
func SettingsPath(getenv func(string) string) (string, error) {
	home := Home(getenv)
	if home == "" {
		return "", errors.New("no HOME or QWEN_HOME to find Qwen Code's settings in")
	}
	return filepath.Join(home, "settings.json"), nil
}

// Change is what `jig install qwen` makes of the settings: jig's hook
// merged, running bin, or with uninstall exactly jig's entries removed.
func Change(bin string, uninstall bool) func(old []byte) ([]byte, bool, error) {
	if uninstall {
		return Uninstall
	}
	return func(old []byte) ([]byte, bool, error) { return Install(old, bin) }
}
