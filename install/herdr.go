package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"jig/herdr"
	"jig/herdr/herdr1"
	"jig/hot"
	"jig/status"
)

// Herdr is `jig install herdr`: the Herdr.app mods and the Herdr 1 plugin,
// both embedded in this binary, put where each Herdr finds them and calling
// this jig by its absolute path (a Herdr started from a desktop may have a
// PATH without jig). Running it again changes nothing that is already
// right.
type Herdr struct {
	Getenv Getenv
	// App and Plugin choose the mods (~/.config/herdr-app/mods) and the
	// plugin (${XDG_DATA_HOME:-~/.local/share}/jig/herdr-plugin); neither
	// is both.
	App, Plugin bool
}

// File is one file a step wrote, found as wanted, or removed.
type File struct {
	Path   string
	Change Change
}

// Link is what became of the plugin's link in Herdr.
type Link int

const (
	LinkNone       Link = iota // not asked (no plugin, or an error first)
	LinkNoHerdr                // herdr is not found: the user links it
	LinkMade                   // herdr plugin link ran
	LinkAlready                // already linked
	LinkAlreadyOff             // already linked and turned off by the user: left off
	LinkRemoved                // herdr plugin unlink ran
)

// HerdrReport is what Install or Uninstall did, in order: the mods' files,
// then the plugin's, and the plugin's link.
type HerdrReport struct {
	App, Plugin []File
	PluginDir   string
	// PluginReady says the plugin's files are all in place, so Herdr's
	// sidebar rows (herdr1.SidebarRows) are what is left to add.
	PluginReady bool
	Link        Link
	// HerdrOwns are the agents whose Herdr integration is installed
	// (herdr integration status): Herdr keeps its own state for their
	// panes and drops jig's.
	HerdrOwns []string
}

// dirs are the Herdr.app mods folder and the plugin's folder.
func (h Herdr) dirs() (mods, plugin string, err error) {
	home := h.Getenv("HOME")
	if home == "" {
		return "", "", errors.New("HOME is not set")
	}
	data := h.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(home, ".config", "herdr-app", "mods"), filepath.Join(data, "jig", "herdr-plugin"), nil
}

func (h Herdr) both() (app, plugin bool) {
	if !h.App && !h.Plugin {
		return true, true
	}
	return h.App, h.Plugin
}

func modNames() []string {
	names := make([]string, 0, len(herdr.Mods))
	for name := range herdr.Mods {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Install writes the mods and the plugin, and links the plugin with
// `herdr plugin link` when herdr is found. A report is returned with an
// error too: what was done before it.
func (h Herdr) Install() (HerdrReport, error) {
	var r HerdrReport
	bin, err := hot.JigPath(h.Getenv)
	if err != nil {
		return r, err
	}
	mods, pluginDir, err := h.dirs()
	if err != nil {
		return r, err
	}
	app, plugin := h.both()
	if app {
		// The mods' JIG constant names the jig they run on this machine.
		withJig := func(data []byte) []byte {
			return bytes.Replace(data, []byte(`const JIG = "jig";`), []byte("const JIG = "+jsonString(bin)+";"), 1)
		}
		for _, name := range modNames() {
			if r.App, err = installEmbeddedDir(r.App, herdr.Mods[name], filepath.Join(mods, name), withJig); err != nil {
				return r, err
			}
		}
	}
	if !plugin {
		return r, nil
	}
	r.PluginDir = pluginDir
	// Herdr runs the manifest's argv commands without a shell, with its
	// own PATH: they name this jig by its path.
	withJig := func(data []byte) []byte {
		return bytes.ReplaceAll(data, []byte(`command = ["jig", `), []byte("command = ["+jsonString(bin)+", "))
	}
	if r.Plugin, err = installEmbeddedDir(nil, herdr.PluginDir, pluginDir, withJig); err != nil {
		return r, err
	}
	r.PluginReady = true
	if r.Link, err = linkHerdrPlugin(h.Getenv, pluginDir); err != nil {
		return r, err
	}
	if hbin, err := herdr1.Find(h.Getenv); err == nil {
		r.HerdrOwns, _ = herdr1.Integrations(hbin) // a herdr without the command has none
	}
	return r, nil
}

// linkHerdrPlugin links the plugin at dir, unless herdr is not found or
// has it linked already.
func linkHerdrPlugin(getenv Getenv, dir string) (Link, error) {
	hbin, err := herdr1.Find(getenv)
	if err != nil {
		return LinkNoHerdr, nil
	}
	plugins, err := herdr1.Plugins(hbin)
	if err != nil {
		return LinkNone, err
	}
	for _, p := range plugins {
		if p.PluginID != herdr1.Source {
			continue
		}
		// Linking again would turn on a plugin the user turned off.
		if !p.Enabled {
			return LinkAlreadyOff, nil
		}
		return LinkAlready, nil
	}
	if _, err := herdr1.Run(hbin, "plugin", "link", dir); err != nil {
		return LinkNone, err
	}
	return LinkMade, nil
}

// Uninstall removes the files Install wrote, their folders when nothing
// else is left in them, and unlinks the plugin.
func (h Herdr) Uninstall() (HerdrReport, error) {
	var r HerdrReport
	mods, pluginDir, err := h.dirs()
	if err != nil {
		return r, err
	}
	app, plugin := h.both()
	if app {
		for _, name := range modNames() {
			if r.App, err = removeEmbeddedDir(r.App, herdr.Mods[name], filepath.Join(mods, name)); err != nil {
				return r, err
			}
		}
	}
	if !plugin {
		return r, nil
	}
	r.PluginDir = pluginDir
	if hbin, err := herdr1.Find(h.Getenv); err == nil {
		plugins, err := herdr1.Plugins(hbin)
		if err != nil {
			return r, err
		}
		for _, p := range plugins {
			if p.PluginID == herdr1.Source {
				if _, err := herdr1.Run(hbin, "plugin", "unlink", herdr1.Source); err != nil {
					return r, err
				}
				r.Link = LinkRemoved
			}
		}
	}
	r.Plugin, err = removeEmbeddedDir(nil, herdr.PluginDir, pluginDir)
	return r, err
}

// installEmbeddedDir copies one embedded folder's files to dir, each passed
// through fill, in one step with mode 0644, adding to done per file
// whether it changed. It refuses a symlink at dir or at any file.
func installEmbeddedDir(done []File, src, dir string, fill func([]byte) []byte) ([]File, error) {
	entries, err := fs.ReadDir(herdr.Files, src)
	if err != nil {
		return done, err
	}
	// The folder is jig's own (jig-work, herdr-plugin): a symlink standing
	// there would send jig's files wherever it points.
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return done, hostError(fmt.Errorf("%w: %s", status.ErrSymlink, dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return done, err
	}
	for _, de := range entries {
		data, err := fs.ReadFile(herdr.Files, path.Join(src, de.Name()))
		if err != nil {
			return done, err
		}
		data = fill(data)
		dst := filepath.Join(dir, de.Name())
		old, err := readFile(dst)
		if err == nil && bytes.Equal(old, data) {
			done = append(done, File{dst, Unchanged})
			continue
		}
		change := Updated
		if errors.Is(err, fs.ErrNotExist) {
			change = Added
		} else if err != nil {
			return done, err
		}
		if err := writeFileMode(dst, data, 0o644); err != nil {
			return done, err
		}
		done = append(done, File{dst, change})
	}
	return done, nil
}

// removeEmbeddedDir removes from dir the files the embedded folder src
// has, then dir itself when that leaves it empty: a file of the user's
// there stays. It never follows a symlink at dir.
func removeEmbeddedDir(done []File, src, dir string) ([]File, error) {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return done, err
	}
	if !fi.IsDir() {
		return done, hostError(fmt.Errorf("%w: %s", status.ErrSymlink, dir))
	}
	entries, err := fs.ReadDir(herdr.Files, src)
	if err != nil {
		return done, err
	}
	for _, de := range entries {
		dst := filepath.Join(dir, de.Name())
		if err := os.Remove(dst); err == nil {
			done = append(done, File{dst, Removed})
		} else if !errors.Is(err, fs.ErrNotExist) {
			return done, err
		}
	}
	os.Remove(dir) // only when empty
	return done, nil
}

// writeFileMode writes in one step (temp file, rename) with a fixed mode,
// never through a symlink planted at path.
func writeFileMode(path string, data []byte, mode os.FileMode) error {
	if err := status.WriteFileAtomic(path, data); err != nil {
		return hostError(err)
	}
	return os.Chmod(path, mode)
}
