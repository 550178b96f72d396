package gemini

import (
	"errors"
	"path/filepath"

	"jig/gemini/chat"
	"jig/settingsjson"
)

// Events are the events jig's hook is installed for. AfterModel is not
// among them: Gemini CLI runs it once per streamed chunk; BeforeModel,
// once per request, says the model.
var Events = []string{"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "BeforeTool",
	"AfterTool", "Notification", "PreCompress"}

// HookTimeout bounds one hook run, in milliseconds as Gemini CLI counts
// them; jig's takes milliseconds.
const HookTimeout = 10000

// dialect is how Gemini CLI reads its settings.json: comments stripped.
var dialect = settingsjson.Dialect{Agent: "Gemini CLI", Comments: true}

// hookName is the name Gemini CLI shows while jig's hook runs.
const hookName = "jig"

// Command is jig's hook command line as the settings hold it: bin is the
// jig to run, quoted when it needs to be.
func Command(bin string) string { return settingsjson.Command(bin, "gemini", "hook") }

func isJigHook(cmd string) bool { return settingsjson.IsJig(cmd, "gemini", "hook") }

// group is jig's group for every event: no matcher (Gemini CLI's "match
// all"), one hook.
func group(bin string) func(string) settingsjson.Group {
	return func(string) settingsjson.Group {
		return settingsjson.Group{Hooks: []settingsjson.Hook{{Type: "command", Name: hookName, Command: Command(bin), Timeout: HookTimeout}}}
	}
}

// Install merges jig's hook groups into the content of Gemini CLI's
// settings.json, leaving every other key, group, hook and comment as it
// was, byte for byte; a hook of an older jig (another path) is replaced.
// It reports whether anything changed; a second run changes nothing. A
// file Gemini CLI would not read (not a JSON object, comments aside) is
// refused.
func Install(data []byte, bin string) (out []byte, changed bool, err error) {
	f, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, err
	}
	if changed, err = f.InstallHooks(Events, group(bin), isJigHook); err != nil || !changed {
		return data, false, err
	}
	return f.Bytes(), true, nil
}

// Uninstall removes exactly jig's hooks, and what held only them: after
// Install it gives the file's bytes back.
func Uninstall(data []byte) (out []byte, changed bool, err error) {
	f, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, err
	}
	if !f.UninstallHooks(isJigHook) {
		return data, false, nil
	}
	return f.Bytes(), true, nil
}

// SettingsPath is Gemini CLI's user settings file.
func SettingsPath(getenv func(string) string) (string, error) {
	home := chat.Home(getenv)
	if home == "" {
		return "", errors.New("no HOME or GEMINI_CLI_HOME to find Gemini CLI's settings in")
	}
	return filepath.Join(home, "settings.json"), nil
}

// Change is the edit of settings.json's content `jig install gemini` makes:
// Install with bin, or Uninstall.
func Change(bin string, uninstall bool) func(old []byte) ([]byte, bool, error) {
	if uninstall {
		return Uninstall
	}
	return func(old []byte) ([]byte, bool, error) { return Install(old, bin) }
}
