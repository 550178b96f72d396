package gemini

import (
	"jig/agents"
	"jig/agents/peer"
	"jig/gemini/chat"
	"jig/hook"
)

// Agent is Gemini CLI in jig's registry of agents, with its commands:
// `jig gemini hook|sessions|show`, `jig install gemini`. Herdr labels it
// "gemini" (src/detect/mod.rs, agent_label).
var Agent = peer.Agent{
	Agent: agents.Agent{ID: ID, Label: "Gemini CLI", Herdr: "gemini"},
	Name:  "gemini", Usage: "keep Gemini CLI sessions' status files (hooks); read its chat records",
	Hook: &peer.Hook{Run: runHook, Usage: "update a Gemini CLI session's status file from one hook event (JSON on stdin)",
		UsageText: "jig gemini hook < event.json\n\nInstalled by `jig install gemini`. On BeforeTool it refuses a call of a tool switched\n" +
			`off (jig request tool NAME off). example: echo '{"session_id":"s1","hook_event_name":"BeforeAgent"}' | jig gemini hook`},
	Records: &peer.Records{Kind: "chat record", Says: "model, usage, context, outputs, recent calls",
		Example: "~/.gemini/tmp/shop/chats/session-2026-12-01T20-21-a470ab55.jsonl",
		List:    func(getenv func(string) string) ([]*chat.Info, error) { return chat.List(chat.Home(getenv)) },
		Show: func(arg string, getenv func(string) string) (peer.Shown, error) {
			file, err := chat.Find(arg, chat.Home(getenv))
			if err != nil {
				return nil, err
			}
			return chat.Show(file)
		}},
	Install: &peer.Install{Settings: SettingsPath, Change: Change, Usage: "merge jig's hooks into Gemini CLI's settings.json",
		UsageText: "jig install gemini [--uninstall]\n\nThe hooks run `jig gemini hook` by jig's absolute path, on every event but AfterModel,\n" +
			"in $GEMINI_CLI_HOME/.gemini/settings.json (else ~/.gemini). Everything else stays.\n\nexample: jig install gemini"},
}

// runHook is one event of `jig gemini hook`.
func runHook(c peer.Call) ([]byte, error) {
	dir, err := c.Dir() // none: the kit refuses every call, fail closed
	return (&Hooks{Dir: dir, NoDir: err, Now: c.Now, Getenv: c.Getenv, Host: c.Host, PID: hook.Parent()}).Stdin(c.Stdin)
}
