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

	"github.com/urfave/cli/v2"

	"jig/herdr"
	"jig/status"
)

// installHerdrCommand puts the Herdr.app mods and the Herdr 1 plugin, both
// embedded in this binary, where each Herdr finds them. Running it again
// changes nothing that is already right.
func installHerdrCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "herdr",
		Usage: "install the Work and Context mods for Herdr.app and the jig plugin for Herdr 1",
		UsageText: "jig install herdr [--app] [--plugin]\n\n" +
			"--app writes the mods to ~/.config/herdr-app/mods/jig-work and jig-context.\n" +
			"--plugin writes the plugin to ${XDG_DATA_HOME:-~/.local/share}/jig/herdr-plugin and links it\n" +
			"with `herdr plugin link`, or prints that line when herdr is not found. Neither flag: both.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "app", Usage: "install the Herdr.app mods"},
			&cli.BoolFlag{Name: "plugin", Usage: "install and link the Herdr 1 plugin"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
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
			if app {
				if err := installHerdrApp(e, filepath.Join(home, ".config", "herdr-app", "mods")); err != nil {
					return errorf(c, exitFailed, "%v", err)
				}
			}
			if plugin {
				data := e.getenv("XDG_DATA_HOME")
				if !filepath.IsAbs(data) {
					data = filepath.Join(home, ".local", "share")
				}
				return installHerdrPlugin(c, e, filepath.Join(data, "jig", "herdr-plugin"))
			}
			return nil
		},
	}
}

func installHerdrApp(e *env, mods string) error {
	names := make([]string, 0, len(herdr.Mods))
	for name := range herdr.Mods {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := installEmbeddedDir(e, herdr.Mods[name], filepath.Join(mods, name)); err != nil {
			return err
		}
	}
	return nil
}

func installHerdrPlugin(c *cli.Context, e *env, dir string) error {
	if err := installEmbeddedDir(e, herdr.PluginDir, dir); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	bin, err := herdrBin(e)
	if err != nil {
		fmt.Fprintf(e.stdout, "herdr not found; to link the plugin, run:\n  herdr plugin link %s\n", dir)
		return nil
	}
	list, err := runHerdr(bin, "plugin", "list", "--json")
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if listsPlugin(list, "jig") {
		fmt.Fprintln(e.stdout, "herdr plugin jig (already linked)")
		return nil
	}
	if _, err := runHerdr(bin, "plugin", "link", dir); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	fmt.Fprintf(e.stdout, "herdr plugin jig linked from %s\n", dir)
	return nil
}

// installEmbeddedDir copies one embedded folder's files to dir, each in one
// step with mode 0644, and says per file whether it changed. It refuses a
// symlink at dir or at any file.
func installEmbeddedDir(e *env, src, dir string) error {
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

// listsPlugin reports whether `herdr plugin list --json` names the plugin
// id anywhere in its answer (an object with "id": id), whatever the nesting.
func listsPlugin(list []byte, id string) bool {
	var v any
	if json.Unmarshal(list, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case map[string]any:
			if t["id"] == id {
				return true
			}
			for _, x := range t {
				if walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range t {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
