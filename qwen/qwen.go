// Package qwen puts Qwen Code sessions on jig's schema-1 status contract:
// `jig qwen hook`, run by Qwen Code for every event of a session, updates
// the session's status file from the hook's input and Qwen's transcript
// (qwen/transcript), takes the session's requests and refuses the calls of
// a tool switched off; Install merges the hook into Qwen's settings.json.
// Qwen Code is a Gemini CLI fork whose hooks have Claude Code's names and
// shapes. docs/qwen.md says what each event does.
package qwen

import (
	"path/filepath"

	"jig/agents"
	"jig/settingsjson"
)

// Agent is Qwen Code in the registry of agents. Herdr has no label for it:
// its src/detect/mod.rs agent_label knows Pi, Claude, Codex, Gemini,
// OpenCode and others, not Qwen.
var Agent = agents.Agent{ID: "qwen-code", Label: "Qwen Code", Herdr: ""}

// Home is Qwen Code's own folder: $QWEN_HOME, else ~/.qwen ("" when
// neither is known).
func Home(getenv func(string) string) string {
	if d := getenv("QWEN_HOME"); d != "" {
		if home := getenv("HOME"); home != "" && (d == "~" || len(d) > 1 && d[:2] == "~/") {
			return filepath.Join(home, d[1:])
		}
		return d
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".qwen")
	}
	return ""
}

// Events are those jig's hook is installed for.
var Events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"PermissionRequest", "Notification", "PreCompact", "Stop", "StopFailure", "SessionEnd"}

// HookTimeout bounds one hook run, in seconds as Qwen reads it (a value of
// 1000 or more it takes for milliseconds); jig's takes milliseconds.
const HookTimeout = 10

// toolEvents take a matcher: jig's hooks match every tool.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PermissionRequest": true}

// dialect is how Qwen Code reads its settings.json: comments stripped (a
// key twice is refused: Qwen reads the last, jig would edit the first).
var dialect = settingsjson.Dialect{Agent: "Qwen Code", Comments: true}

func isJigHook(cmd string) bool { return settingsjson.IsJig(cmd, "qwen", "hook") }

// group is jig's group for an event, matching every tool where the event
// takes a matcher.
func group(bin string) func(string) settingsjson.Group {
	return func(ev string) settingsjson.Group {
		g := settingsjson.Group{Hooks: []settingsjson.Hook{{Type: "command", Command: settingsjson.Command(bin, "qwen", "hook"), Timeout: HookTimeout}}}
		if toolEvents[ev] {
			g.Matcher = "*"
		}
		return g
	}
}

// Install merges jig's hook (every event in Events, run by bin) into the
// settings file's content, leaving every other byte as it was, the user's
// comments too (Qwen reads its settings with comments stripped). It reports
// whether anything changed; a second run changes nothing.
func Install(data []byte, bin string) ([]byte, bool, error) {
	f, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, err
	}
	if changed, err := f.InstallHooks(Events, group(bin), isJigHook); err != nil || !changed {
		return data, false, err
	}
	return f.Bytes(), true, nil
}

// Uninstall removes exactly jig's hooks, and what held only them: after
// Install it gives the file's bytes back.
func Uninstall(data []byte) ([]byte, bool, error) {
	f, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, err
	}
	if !f.UninstallHooks(isJigHook) {
		return data, false, nil
	}
	return f.Bytes(), true, nil
}
