package install

import (
	"errors"
	"os"
	"path/filepath"

	"jig/claude"
	"jig/configfile"
	"jig/hot"
	"jig/status"
)

// Claude is `jig install claude`: jig's hooks and statusLine command merged
// into Claude Code's settings, the user's (settings.json in Claude's
// config dir) or, with Project, this folder's .claude/settings.json.
// Everything else in the file stays.
type Claude struct {
	Getenv  Getenv
	Project bool
}

// ConfigError is a config file jig refuses to edit (it is not what its
// host reads): it is left as it is. It is bad input (status.ErrBadInput).
type ConfigError struct {
	Path string
	Err  error
}

func (e *ConfigError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Is makes a refused config bad input (exit 4), whatever its cause.
func (e *ConfigError) Is(target error) bool { return target == status.ErrBadInput }

func (c Claude) path() (string, error) {
	if c.Project {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return filepath.Join(wd, ".claude", "settings.json"), nil
	}
	path := filepath.Join(claude.AgentDir(c.Getenv), "settings.json")
	if path == "settings.json" {
		return "", errors.New("no HOME or CLAUDE_CONFIG_DIR to find Claude's settings in")
	}
	return path, nil
}

// Install merges jig's entries, which run jig by its absolute path
// (hot.FastPath: jig-fast, when it sits beside jig). The notes say what it
// did with a statusLine of the user's (it wraps it).
func (c Claude) Install() (File, []string, error) {
	bin, err := hot.FastPath(c.Getenv)
	if err != nil {
		return File{}, nil, err
	}
	var notes []string
	f, err := c.edit(func(old []byte) (out []byte, changed bool, err error) {
		out, changed, notes, err = claude.Install(old, bin)
		return out, changed, err
	})
	return f, notes, err // notes stand even when the write fails
}

// Uninstall removes exactly jig's entries.
func (c Claude) Uninstall() (File, error) { return c.edit(claude.Uninstall) }

// edit changes the settings file with change (EditFile).
func (c Claude) edit(change func(old []byte) ([]byte, bool, error)) (File, error) {
	path, err := c.path()
	if err != nil {
		return File{}, err
	}
	return EditFile(path, change)
}

// EditFile reads an agent's settings file (none is empty; through a link,
// refused when read-only: configfile), changes it with change and writes
// it back in one step, keeping the file's mode. A file change refuses is a
// *ConfigError, left as it is.
func EditFile(path string, change func(old []byte) ([]byte, bool, error)) (File, error) {
	f, err := configfile.Read(path)
	if err != nil {
		return File{}, err
	}
	out, changed, err := change(f.Data)
	if err != nil {
		return File{}, &ConfigError{f.Target, err}
	}
	if !changed {
		return File{f.Target, Unchanged}, nil
	}
	if err := f.Write(out, 0o644); err != nil {
		return File{}, err
	}
	return File{f.Target, Updated}, nil
}
