package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"jig/hot"
	"jig/opencode"
	"jig/status"
)

// OpenCode is `jig install opencode`: jig's plugin (embedded in this
// binary, naming this jig by its absolute path) in OpenCode's global plugin
// folder, $XDG_CONFIG_HOME/opencode/plugin, else ~/.config/opencode/plugin.
// A jig.js there that is not jig's is left alone, on install and uninstall.
type OpenCode struct {
	Getenv Getenv
}

// pluginMark is a line only jig's plugin has.
var pluginMark = []byte("// jig: publishes every OpenCode session of this process")

func (o OpenCode) path() (string, error) {
	dir := opencode.PluginDir(o.Getenv)
	if dir == "" {
		return "", errors.New("no OpenCode config folder: set HOME or XDG_CONFIG_HOME")
	}
	return filepath.Join(dir, opencode.PluginName), nil
}

// existing is the plugin file as it is (nil: none), refused when it is
// another program's.
func existing(path string) ([]byte, error) {
	old, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case !bytes.HasPrefix(old, pluginMark):
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("%s is not jig's plugin: left alone (move it away first)", path))
	}
	return old, nil
}

// Install writes the plugin, unless it is there as this jig writes it.
func (o OpenCode) Install() (File, error) {
	path, err := o.path()
	if err != nil {
		return File{}, err
	}
	bin, err := hot.JigPath(o.Getenv)
	if err != nil {
		return File{}, err
	}
	want := opencode.Installed(bin)
	old, err := existing(path)
	if err != nil {
		return File{}, err
	}
	if bytes.Equal(old, want) {
		return File{path, Unchanged}, nil
	}
	change := Updated
	if old == nil {
		change = Added
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return File{}, err
	}
	if err := writeFileMode(path, want, 0o644); err != nil {
		return File{}, err
	}
	return File{path, change}, nil
}

// Uninstall removes jig's plugin; Unchanged when there was none.
func (o OpenCode) Uninstall() (File, error) {
	path, err := o.path()
	if err != nil {
		return File{}, err
	}
	old, err := existing(path)
	if err != nil {
		return File{}, err
	}
	if old == nil {
		return File{path, Unchanged}, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return File{}, err
	}
	// The folders install made, when nothing else is in them (a folder
	// that holds anything stays, and so does its parent).
	if os.Remove(filepath.Dir(path)) == nil {
		os.Remove(filepath.Dir(filepath.Dir(path)))
	}
	return File{path, Removed}, nil
}
