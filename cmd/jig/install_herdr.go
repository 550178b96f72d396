package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/herdr"
	"jig/herdr/herdr1"
	"jig/status"
)

// installHerdrCommand puts the Herdr.app mods and the Herdr 1 plugin, both
// embedded in this binary, where each Herdr finds them, calling this jig by
// its absolute path. Running it again changes nothing that is already
// right; --uninstall takes back what it put there.
func installHerdrCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "herdr",
		Usage: "install the Work and Context mods for Herdr.app and the jig plugin for Herdr 1",
		UsageText: "jig install herdr [--app] [--plugin] [--uninstall]\n\n" +
			"--app writes the mods to ~/.config/herdr-app/mods/jig-work and jig-context.\n" +
			"--plugin writes the plugin to ${XDG_DATA_HOME:-~/.local/share}/jig/herdr-plugin and links it\n" +
			"with `herdr plugin link`, or prints that line when herdr is not found. Neither flag: both.\n" +
			"Both call this jig by its absolute path ($JIG_BIN when set): a Herdr started from a\n" +
			"desktop may have a PATH without jig. --uninstall removes them (and unlinks the plugin).\n\n" +
			"example: jig install herdr --plugin",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "app", Usage: "install the Herdr.app mods"},
			&cli.BoolFlag{Name: "plugin", Usage: "install and link the Herdr 1 plugin"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove what jig install herdr added"},
		},
		Action: func(c *cli.Context) error {
			bin, err := e.jigPath(c)
			if err != nil {
				return err
			}
			home := e.getenv("HOME")
			if home == "" {
				return errorf(c, exitFailed, "HOME is not set")
			}
			app, plugin := c.Bool("app"), c.Bool("plugin")
			if !app && !plugin {
				app, plugin = true, true
			}
			mods := filepath.Join(home, ".config", "herdr-app", "mods")
			data := e.getenv("XDG_DATA_HOME")
			if !filepath.IsAbs(data) {
				data = filepath.Join(home, ".local", "share")
			}
			pluginDir := filepath.Join(data, "jig", "herdr-plugin")
			if c.Bool("uninstall") {
				return uninstallHerdr(c, e, app, plugin, mods, pluginDir)
			}
			if app {
				if err := installHerdrApp(e, mods, bin); err != nil {
					return errorf(c, exitFailed, "%v", err)
				}
			}
			if plugin {
				return installHerdrPlugin(c, e, pluginDir, bin)
			}
			return nil
		},
	}
}

func modNames() []string {
	names := make([]string, 0, len(herdr.Mods))
	for name := range herdr.Mods {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func installHerdrApp(e *env, mods, bin string) error {
	// The mods' JIG constant names the jig they run on this machine.
	withJig := func(data []byte) []byte {
		return bytes.Replace(data, []byte(`const JIG = "jig";`), []byte("const JIG = "+jsonString(bin)+";"), 1)
	}
	for _, name := range modNames() {
		if err := installEmbeddedDir(e, herdr.Mods[name], filepath.Join(mods, name), withJig); err != nil {
			return err
		}
	}
	return nil
}

func installHerdrPlugin(c *cli.Context, e *env, dir, bin string) error {
	// Herdr runs the manifest's argv commands without a shell, with its own
	// PATH: they name this jig by its path.
	withJig := func(data []byte) []byte {
		return bytes.ReplaceAll(data, []byte(`command = ["jig", `), []byte("command = ["+jsonString(bin)+", "))
	}
	if err := installEmbeddedDir(e, herdr.PluginDir, dir, withJig); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	defer fmt.Fprintf(e.stdout, "Herdr shows jig's tokens only in a sidebar row that names them; add to Herdr's config.toml:\n%s\n", herdr1.SidebarRows)
	hbin, err := herdr1.Find(e.getenv)
	if err != nil {
		fmt.Fprintf(e.stdout, "herdr not found; to link the plugin, run:\n  herdr plugin link %s\n", dir)
		return nil
	}
	plugins, err := herdr1.Plugins(hbin)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	for _, p := range plugins {
		if p.PluginID != herdr1.Source {
			continue
		}
		// Linking again would turn on a plugin the user turned off.
		if !p.Enabled {
			fmt.Fprintln(e.stdout, "herdr plugin jig (already linked, turned off: herdr plugin enable jig)")
			return nil
		}
		fmt.Fprintln(e.stdout, "herdr plugin jig (already linked)")
		return nil
	}
	if _, err := herdr1.Run(hbin, "plugin", "link", dir); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	fmt.Fprintf(e.stdout, "herdr plugin jig linked from %s\n", dir)
	return nil
}

// uninstallHerdr removes the files jig install herdr wrote, their folders
// when nothing else is left in them, and unlinks the plugin.
func uninstallHerdr(c *cli.Context, e *env, app, plugin bool, mods, pluginDir string) error {
	if app {
		for _, name := range modNames() {
			if err := removeEmbeddedDir(e, herdr.Mods[name], filepath.Join(mods, name)); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
		}
	}
	if !plugin {
		return nil
	}
	if hbin, err := herdr1.Find(e.getenv); err == nil {
		plugins, err := herdr1.Plugins(hbin)
		if err != nil {
			return errorf(c, exitFailed, "%v", err)
		}
		for _, p := range plugins {
			if p.PluginID == herdr1.Source {
				if _, err := herdr1.Run(hbin, "plugin", "unlink", herdr1.Source); err != nil {
					return errorf(c, exitFailed, "%v", err)
				}
				fmt.Fprintln(e.stdout, "herdr plugin jig unlinked")
			}
		}
	}
	if err := removeEmbeddedDir(e, herdr.PluginDir, pluginDir); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	return nil
}

// installEmbeddedDir copies one embedded folder's files to dir, each passed
// through fill, in one step with mode 0644, and says per file whether it
// changed. It refuses a symlink at dir or at any file.
func installEmbeddedDir(e *env, src, dir string, fill func([]byte) []byte) error {
	entries, err := fs.ReadDir(herdr.Files, src)
	if err != nil {
		return err
	}
	// The folder is jig's own (jig-work, herdr-plugin): a symlink standing
	// there would send jig's files wherever it points.
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s", status.ErrSymlink, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, de := range entries {
		data, err := fs.ReadFile(herdr.Files, path.Join(src, de.Name()))
		if err != nil {
			return err
		}
		data = fill(data)
		dst := filepath.Join(dir, de.Name())
		old, err := status.ReadFileNoFollow(dst)
		if err == nil && bytes.Equal(old, data) {
			fmt.Fprintf(e.stdout, "%s (up to date)\n", dst)
			continue
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := status.WriteFileAtomic(dst, data); err != nil {
			return err
		}
		if err := os.Chmod(dst, 0o644); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, dst)
	}
	return nil
}

// removeEmbeddedDir removes from dir the files the embedded folder src
// has, then dir itself when that leaves it empty: a file of the user's
// there stays. It never follows a symlink at dir.
func removeEmbeddedDir(e *env, src, dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s", status.ErrSymlink, dir)
	}
	entries, err := fs.ReadDir(herdr.Files, src)
	if err != nil {
		return err
	}
	for _, de := range entries {
		dst := filepath.Join(dir, de.Name())
		if err := os.Remove(dst); err == nil {
			fmt.Fprintf(e.stdout, "removed %s\n", dst)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	os.Remove(dir) // only when empty
	return nil
}

// jsonString is s as a JSON string, which is also a TOML basic string and
// a JS string literal (Go escapes control characters, U+2028 and U+2029).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
