package install

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/google/renameio/v2"

	"jig/hot"
)

// WezTerm is `jig install wezterm`: the line that loads jig's module
// (scripts/wezterm/jig.lua, saved next to wezterm.lua), which shows the
// focused pane's agent in the right status, and with TabTitle each tab's
// in its title.
type WezTerm struct {
	Getenv   Getenv
	TabTitle bool
	// Config is the wezterm.lua to write; "" is $WEZTERM_CONFIG_FILE, else
	// ~/.config/wezterm/wezterm.lua, else ~/.wezterm.lua when only that
	// one exists.
	Config string
}

// wezTermModuleHead is jig.lua's first line: an uninstall removes only a
// jig.lua that starts with it.
const wezTermModuleHead = "-- jig for WezTerm:"

// wezTermFresh is the wezterm.lua jig writes when there is none.
const wezTermFresh = "local wezterm = require 'wezterm'\nlocal config = wezterm.config_builder()\nreturn config\n"

func (w WezTerm) file() string {
	if w.Config != "" {
		return w.Config
	}
	if f := w.Getenv("WEZTERM_CONFIG_FILE"); f != "" {
		return f
	}
	file := filepath.Join(configHome(w.Getenv), "wezterm", "wezterm.lua")
	home := filepath.Join(w.Getenv("HOME"), ".wezterm.lua")
	if _, err := os.Stat(file); err != nil {
		if _, err := os.Stat(home); err == nil {
			return home
		}
	}
	return file
}

func (w WezTerm) block() Block {
	return Block{File: w.file(), Comment: "--", Name: "wezterm", Fresh: wezTermFresh}
}

// module is where jig.lua goes: next to the config.
func (w WezTerm) module() string { return filepath.Join(filepath.Dir(w.file()), "jig.lua") }

// Lines are the wezterm.lua line, and File the module it loads.
func (w WezTerm) Lines() (Lines, error) {
	bin, err := hot.LinePath(w.Getenv)
	if err != nil {
		return Lines{}, err
	}
	opts := "bin = " + luaQuote(bin)
	if w.TabTitle {
		opts += ", tab_title = true"
	}
	module := w.module()
	return Lines{Text: fmt.Sprintf("dofile(%s).setup { %s }\n", luaQuote(module), opts), File: module}, nil
}

// finalReturn is the `return config` that ends a wezterm.lua.
var finalReturn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^return\b.*\s*\z`) })

func beforeReturn(old []byte) (int, bool) {
	loc := finalReturn().FindIndex(old)
	if loc == nil {
		return 0, false
	}
	return loc[0], true
}

// Write saves jig.lua and puts the line before the config's final return,
// between jig's lines; a config without one is left alone (a
// *NoPlaceError), and a missing config is made.
func (w WezTerm) Write() (Edit, error) {
	lines, err := w.Lines()
	if err != nil {
		return Edit{}, err
	}
	if err := os.MkdirAll(filepath.Dir(lines.File), 0o755); err != nil {
		return Edit{}, err
	}
	if err := renameio.WriteFile(lines.File, []byte(snippet("wezterm/jig.lua")), 0o644); err != nil {
		return Edit{}, err
	}
	edit, err := w.block().Write(lines.Text, beforeReturn, "final `return`")
	edit.Saved = lines.File
	return edit, err
}

// Uninstall takes jig's lines out of the config and removes the jig.lua
// Write saved, and the config when jig made it and nothing else is left.
// WezTerm reads its config again by itself.
func (w WezTerm) Uninstall() (Edit, error) {
	edit, _, err := w.block().Remove()
	if err != nil {
		return edit, err
	}
	module := w.module()
	gone, err := removeOwn(module, wezTermModuleHead)
	if gone {
		edit.Deleted = append(edit.Deleted, module)
	}
	return edit, err
}
