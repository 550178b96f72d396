package codex

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"jig/configfile"
)

// Home is Codex's own folder: $CODEX_HOME, else ~/.codex ("" when neither
// is known).
func Home(getenv func(string) string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}

// Merge puts jig's hooks into the contents of hooks.json (hooksFile is its
// absolute path, which names the trust entries) and their trust into
// config.toml's. It returns the new contents and notes for the person
// running it; a second run gives the same bytes. A config.toml that
// defines hooks.state in a shape jig's tables would break is refused, and
// so is a hooks.json that is not Codex's shape.
func Merge(hooks, config []byte, hooksFile, bin string) (newHooks, newConfig []byte, notes []string, err error) {
	cmd := Command(bin)
	newHooks, err = installHooksFile(hooks, cmd, specs)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("hooks.json: %w", err)
	}
	at, err := jigGroups(newHooks, cmd, specs)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("hooks.json: %w", err)
	}
	var entries []trustEntry
	var keys []string
	for _, sp := range specs {
		e := trustEntry{Key: trustKey(hooksFile, sp.Label, at[sp.Event]), Hash: trustHash(sp.Label, cmd, sp.Timeout)}
		entries, keys = append(entries, e), append(keys, e.Key)
	}
	own := findOwned(config, jigKeys(hooks, hooksFile))
	existing, bad := trustConflicts(own.without(config), keys)
	if bad != "" {
		return nil, nil, nil, errors.New(bad + "; trust jig's hooks in Codex instead (it asks when they need review)")
	}
	for _, t := range own.tables {
		delete(existing, t.key) // jig's table, though someone added a key to it
	}
	skip := map[string]bool{}
	for _, e := range entries {
		hash, there := existing[e.Key]
		if !there {
			continue
		}
		skip[e.Key] = true
		if hash != e.Hash {
			notes = append(notes, "config.toml trusts another hook under "+e.Key+" (not jig's line; left as it is): Codex will not run jig's until it is trusted again")
		}
	}
	newConfig = ownedConfig(config, own, entries, skip)
	if n := len(findOwned(newConfig, jigKeys(newHooks, hooksFile)).tables); n != len(entries)-len(skip) {
		// the lines jig added are not tables: the file ends inside a value
		return nil, nil, nil, errors.New("config.toml ends inside a string or a value, so jig cannot add its lines after it")
	}
	return newHooks, newConfig, notes, nil
}

// Unmerge removes exactly what Merge added: jig's groups from hooks.json
// and jig's lines from config.toml, whatever Codex or the user wrote
// around them since; a file left with nothing of the user's (nil) is
// removed. hooksFile is hooks.json's path, which names the trust entries.
func Unmerge(hooks, config []byte, hooksFile string) (newHooks, newConfig []byte, err error) {
	newHooks, err = uninstallHooksFile(hooks)
	if err != nil {
		return nil, nil, fmt.Errorf("hooks.json: %w", err)
	}
	newConfig = findOwned(config, jigKeys(hooks, hooksFile)).without(config)
	if len(newConfig) == 0 && len(config) > 0 {
		newConfig = nil // the file jig's lines were alone in goes
	}
	return newHooks, newConfig, nil
}

// BadFileError is a hooks.json or config.toml jig will not edit; nothing
// was changed.
type BadFileError struct {
	Dir string
	Err error
}

func (e *BadFileError) Error() string { return e.Dir + ": " + e.Err.Error() }
func (e *BadFileError) Unwrap() error { return e.Err }

// InstallResult says what Install or Uninstall did, file by file.
type InstallResult struct {
	Changed, Unchanged []string // paths
	Notes              []string
}

// Install merges jig's hooks into $CODEX_HOME/hooks.json and trusts them
// in $CODEX_HOME/config.toml (see docs/codex.md); with uninstall it takes
// them out again. bin is the jig the hooks run, an absolute path. Every
// file is written in one step, keeping its mode; a new one is 0600.
func Install(codexHome, bin string, uninstall bool) (*InstallResult, error) {
	if codexHome == "" {
		return nil, errors.New("no CODEX_HOME or HOME to find Codex's folder in")
	}
	home, err := filepath.Abs(codexHome)
	if err != nil {
		return nil, err
	}
	hooksFile, configFile := filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
	hooks, err := configfile.Read(hooksFile)
	if err != nil {
		return nil, err
	}
	config, err := configfile.Read(configFile)
	if err != nil {
		return nil, err
	}
	var newHooks, newConfig []byte
	res := &InstallResult{}
	if uninstall {
		newHooks, newConfig, err = Unmerge(hooks.Data, config.Data, hooksFile)
	} else {
		newHooks, newConfig, res.Notes, err = Merge(hooks.Data, config.Data, hooksFile, bin)
	}
	if err != nil {
		return nil, &BadFileError{Dir: home, Err: err}
	}
	// trust goes last on install and first on uninstall: a hook is never
	// trusted before it is in place
	steps := []struct {
		file configfile.File
		new  []byte
	}{{hooks, newHooks}, {config, newConfig}}
	if uninstall {
		steps[0], steps[1] = steps[1], steps[0]
	}
	for _, st := range steps {
		old := st.file.Data
		if bytes.Equal(old, st.new) && (st.new != nil || old == nil) {
			res.Unchanged = append(res.Unchanged, st.file.Target)
			continue
		}
		if err := writeOrRemove(st.file, st.new); err != nil {
			return nil, err
		}
		res.Changed = append(res.Changed, st.file.Target)
	}
	return res, nil
}

// writeOrRemove writes data in one step, keeping the file's mode (0600
// for a new one); nil data removes the file.
func writeOrRemove(f configfile.File, data []byte) error {
	if data == nil {
		return f.Remove()
	}
	return f.Write(data, 0o600)
}
