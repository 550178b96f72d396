package install

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"jig/pi"
)

// Pi is `jig install pi`: jig's Pi extension (embedded in this binary)
// where Pi discovers extensions: $PI_CODING_AGENT_DIR/extensions, else
// ~/.pi/agent/extensions.
type Pi struct {
	Getenv Getenv
}

func (p Pi) path() (string, error) {
	agent, err := pi.AgentDir(p.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(agent, "extensions", pi.ExtensionName), nil
}

// Install writes the extension, unless it is there as this jig ships it.
func (p Pi) Install() (File, error) {
	path, err := p.path()
	if err != nil {
		return File{}, err
	}
	old, err := readFile(path)
	if err == nil && bytes.Equal(old, pi.Extension) {
		return File{path, Unchanged}, nil
	}
	change := Updated
	if errors.Is(err, fs.ErrNotExist) {
		change = Added
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return File{}, err
	}
	if err := writeFileMode(path, pi.Extension, 0o644); err != nil {
		return File{}, err
	}
	return File{path, change}, nil
}

// Uninstall removes the extension; Unchanged when there was none.
func (p Pi) Uninstall() (File, error) {
	path, err := p.path()
	if err != nil {
		return File{}, err
	}
	err = os.Remove(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return File{path, Unchanged}, nil
	case err != nil:
		return File{}, err
	}
	return File{path, Removed}, nil
}
