// Package herdr carries jig's Herdr integrations as files: the Herdr.app
// mods (app/work, app/context) and the Herdr 1 plugin (plugin/). They are
// embedded so `jig install herdr` can put them in place from the binary.
package herdr

import "embed"

// Files holds each mod's mod.json and main.js and the plugin manifest.
//
//go:embed app/work/mod.json app/work/main.js app/context/mod.json app/context/main.js plugin/herdr-plugin.toml
var Files embed.FS

// Mods maps each Herdr.app mod folder name jig installs to its source here.
var Mods = map[string]string{
	"jig-work":    "app/work",
	"jig-context": "app/context",
}

// PluginDir is the plugin's folder in Files.
const PluginDir = "plugin"
