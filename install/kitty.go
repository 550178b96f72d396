package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/renameio/v2"

	"jig/hot"
)

// Kitty is `jig install kitty`: the kitty.conf line that loads jig's
// watcher (scripts/kitty/jig_kitty.py, saved next to kitty.conf) into
// kitty, which puts each window's agent in its title. It needs no remote
// control and runs nothing in the shells.
type Kitty struct {
	Getenv Getenv
	// Config is the kitty.conf to write; "" is
	// $KITTY_CONFIG_DIRECTORY/kitty.conf, else ~/.config/kitty/kitty.conf.
	Config string
}

// kittyWatcherHead is the watcher's first line: an uninstall removes only
// a file that starts with it.
const kittyWatcherHead = "# jig for kitty:"

// paths are the config and the watcher beside it.
func (k Kitty) paths() (conf, watcher string, err error) {
	conf = k.Config
	if conf == "" {
		dir := k.Getenv("KITTY_CONFIG_DIRECTORY")
		if dir == "" || !filepath.IsAbs(dir) {
			dir = filepath.Join(configHome(k.Getenv), "kitty")
		}
		conf = filepath.Join(dir, "kitty.conf")
	}
	if conf, err = filepath.Abs(conf); err != nil {
		return "", "", err
	}
	watcher = filepath.Join(filepath.Dir(conf), "jig_kitty.py")
	if strings.ContainsAny(watcher, "\n\r") {
		return "", "", fmt.Errorf("the path %q cannot go in kitty.conf", watcher)
	}
	return conf, watcher, nil
}

// Lines are the kitty.conf line, and File the watcher it loads.
func (k Kitty) Lines() (Lines, error) {
	_, watcher, err := k.paths()
	if err != nil {
		return Lines{}, err
	}
	return Lines{Text: "watcher " + watcher + "\n", File: watcher}, nil
}

// kittyWatcher is the shipped watcher with the path of this jig, as a
// Python string literal, in place of the bare `jig`.
func kittyWatcher(bin string) (string, error) {
	if !utf8.ValidString(bin) {
		return "", fmt.Errorf("jig's path %q is not UTF-8 and cannot go in a Python file", bin)
	}
	text := snippet("kitty/jig_kitty.py")
	const bare = "\nJIG = 'jig'"
	if !strings.Contains(text, bare) {
		panic("scripts/kitty/jig_kitty.py has no JIG line") // shipped with the binary: a build bug
	}
	return strings.Replace(text, bare, "\nJIG = "+strconv.Quote(bin), 1), nil
}

// Write saves the watcher and puts its line in kitty.conf between jig's
// begin and end lines. kitty loads a watcher when it starts.
func (k Kitty) Write() (Edit, error) {
	bin, err := hot.LinePath(k.Getenv)
	if err != nil {
		return Edit{}, err
	}
	conf, watcher, err := k.paths()
	if err != nil {
		return Edit{}, err
	}
	text, err := kittyWatcher(bin)
	if err != nil {
		return Edit{}, err
	}
	if err := os.MkdirAll(filepath.Dir(watcher), 0o755); err != nil {
		return Edit{}, err
	}
	if err := renameio.WriteFile(watcher, []byte(text), 0o644); err != nil {
		return Edit{}, err
	}
	edit, err := Block{File: conf, Comment: "#", Name: "kitty"}.Write("watcher "+watcher+"\n", AtEnd, "")
	edit.Saved = watcher
	return edit, err
}

// Uninstall takes jig's lines out of kitty.conf and removes the watcher
// Write saved (only a file that is jig's watcher), and kitty.conf when
// nothing else is left in it.
func (k Kitty) Uninstall() (Edit, error) {
	conf, watcher, err := k.paths()
	if err != nil {
		return Edit{}, err
	}
	edit, _, err := Block{File: conf, Comment: "#", Name: "kitty"}.Remove()
	if err != nil {
		return edit, err
	}
	gone, err := removeOwn(watcher, kittyWatcherHead)
	if gone {
		edit.Deleted = append(edit.Deleted, watcher)
	}
	return edit, err
}
