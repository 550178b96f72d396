// Package opencode is what jig knows of OpenCode itself: its agent
// descriptor, where it keeps its configuration, jig's plugin (embedded,
// jig.js), and its sessions read through its own command line (`opencode
// session list`, `opencode export`), bounded, so no SQLite driver and no C
// compiler are needed.
package opencode

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"path/filepath"

	"jig/agents"
)

// Agent is OpenCode as readers name it; Herdr's label is "opencode"
// (src/detect/mod.rs agent_label).
var Agent = agents.Agent{ID: "opencode", Label: "OpenCode", Herdr: "opencode"}

// PluginName is the file name jig's plugin is installed under.
const PluginName = "jig.js"

// Plugin is the plugin's source, as embedded; Installed writes jig's path in.
//
//go:embed jig.js
var Plugin []byte

// SwitchesDir is the state dir's folder of each session's switches
// (request.Kept): the plugin refuses a call from them, and a resumed
// session gets them back.
const SwitchesDir = "opencode-switches"

// ConfigDir is OpenCode's global configuration folder:
// $XDG_CONFIG_HOME/opencode, else ~/.config/opencode.
func ConfigDir(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "opencode")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "opencode")
	}
	return ""
}

// PluginDir is where OpenCode loads global plugins from.
func PluginDir(getenv func(string) string) string {
	if d := ConfigDir(getenv); d != "" {
		return filepath.Join(d, "plugin")
	}
	return ""
}

// installedLine is the plugin's line that names jig; Installed fills it.
const installedLine = `const INSTALLED_JIG = ""`

// Installed is the plugin as `jig install opencode` writes it: naming jig
// by its absolute path, so OpenCode started from anywhere finds it.
func Installed(jig string) []byte {
	quoted, _ := json.Marshal(jig)
	return bytes.Replace(Plugin, []byte(installedLine), []byte("const INSTALLED_JIG = "+string(quoted)), 1)
}
