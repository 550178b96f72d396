package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"jig/scripts"
	"jig/status"
)

// Getenv reads one environment variable: os.Getenv, or a test's.
type Getenv func(string) string

// Lines is what `jig install HOST` prints: the lines for the host's config,
// and the file jig saves beside it with --write (the WezTerm module, the
// kitty watcher), if any.
type Lines struct {
	Text string
	File string
}

// readFile reads a host's file that jig wrote or edits, never through a
// symlink planted at it (status.ReadFileNoFollow; its refusal is a
// hostError).
func readFile(path string) ([]byte, error) {
	data, err := status.ReadFileNoFollow(path)
	return data, hostError(err)
}

// hostError is a failure on a host's file as install's callers take it: a
// symlink refused in a host's folder says what status.ErrSymlink says but
// is none, for no state dir is unsafe (a command exits 7 for it, not 3).
func hostError(err error) error {
	if err != nil && errors.Is(err, status.ErrSymlink) {
		return errors.New(err.Error())
	}
	return err
}

// configHome is $XDG_CONFIG_HOME, else ~/.config.
func configHome(getenv Getenv) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(getenv("HOME"), ".config")
}

// configFile is the config file for --write: the XDG one (xdg, relative to
// ~, moved under $XDG_CONFIG_HOME when set) when it exists, else the home
// one.
func configFile(getenv Getenv, xdg, home string) string {
	p := filepath.Join(configHome(getenv), strings.TrimPrefix(xdg, ".config/"))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return filepath.Join(getenv("HOME"), home)
}

// snippet is a shipped file's text.
func snippet(name string) string {
	data, err := scripts.FS.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: a missing one is a build bug
	}
	return string(data)
}
