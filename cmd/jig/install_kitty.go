package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/renameio/v2"
	"github.com/urfave/cli/v2"

	"jig/status"
)

// kitty: a watcher kitty loads into its own process (scripts/kitty/jig_kitty.py)
// sets the title of each window that runs an agent. Nothing runs in the
// shells, and kitty needs no remote control: kitty.conf names the watcher.

// kittyWatcherHead is the watcher's first line: --uninstall removes only a
// file that starts with it.
const kittyWatcherHead = "# jig for kitty:"

func installKittyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "kitty",
		Usage: "print (or --write) the kitty.conf lines that put each window's agent in its title",
		UsageText: "jig install kitty [--write | --uninstall] [--config FILE]\n\n" +
			"Prints the kitty.conf lines that load jig's watcher (jig_kitty.py, next to kitty.conf) into\n" +
			"kitty: each window that runs an agent gets its status line as its title, which the tab bar\n" +
			"shows. It needs no remote control and runs nothing in shells; jig runs only while a session\n" +
			"file exists. --write saves jig_kitty.py and puts the line in FILE between jig's begin and\n" +
			"end lines, replacing what an earlier --write put there; --uninstall removes them and the\n" +
			"watcher file. FILE default: $KITTY_CONFIG_DIRECTORY/kitty.conf, else\n" +
			"~/.config/kitty/kitty.conf. kitty loads a watcher when it starts: restart it.\n\n" +
			"example: jig install kitty --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "save jig_kitty.py and add the lines to kitty.conf once"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the lines and the watcher file"},
			&cli.StringFlag{Name: "config", Usage: "the kitty.conf `FILE`"},
		},
		Action: func(c *cli.Context) error {
			bin, err := e.jigPath(c)
			if err != nil {
				return err
			}
			if c.Bool("write") && c.Bool("uninstall") {
				return usageError(c, "--write and --uninstall do opposite things: give one")
			}
			file := c.String("config")
			if file == "" {
				dir := e.getenv("KITTY_CONFIG_DIRECTORY")
				if dir == "" || !filepath.IsAbs(dir) {
					dir = filepath.Join(e.configHome(), "kitty")
				}
				file = filepath.Join(dir, "kitty.conf")
			}
			if file, err = filepath.Abs(file); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			watcher := filepath.Join(filepath.Dir(file), "jig_kitty.py")
			if strings.ContainsAny(watcher, "\n\r") {
				return errorf(c, exitFailed, "the path %q cannot go in kitty.conf", watcher)
			}
			lines := "watcher " + watcher + "\n"
			b := block{file: file, comment: "#", name: "kitty"}
			switch {
			case c.Bool("uninstall"):
				return e.uninstallKitty(c, b, watcher)
			case c.Bool("write"):
				return e.writeKitty(c, b, watcher, bin, lines)
			}
			_, err = fmt.Fprintf(e.stdout, "# jig's watcher goes to %s (jig install kitty --write puts it there).\n"+
				"# Add to kitty.conf, then restart kitty (no remote control needed):\n%s", watcher, lines)
			return err
		},
	}
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

// writeKitty saves the watcher and puts its line in kitty.conf between
// jig's begin and end lines.
func (e *env) writeKitty(c *cli.Context, b block, watcher, bin, lines string) error {
	text, err := kittyWatcher(bin)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if err := os.MkdirAll(filepath.Dir(watcher), 0o755); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if err := renameio.WriteFile(watcher, []byte(text), 0o644); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	return e.writeBlock(c, b, lines, atEnd, "saved "+watcher+"; restart kitty to load it")
}

// uninstallKitty removes jig's lines from kitty.conf and the watcher
// --write saved (only a file that is jig's watcher).
func (e *env) uninstallKitty(c *cli.Context, b block, watcher string) error {
	if err := e.removeBlock(c, b, "restart kitty to unload the watcher"); err != nil {
		return err
	}
	text, err := status.ReadFile(watcher, status.FollowLinks, status.MaxFileSize)
	if err != nil || !bytes.HasPrefix(text, []byte(kittyWatcherHead)) {
		return nil
	}
	if err := os.Remove(watcher); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	fmt.Fprintf(e.stderr, "jig: %s: removed %s\n", commandName(c), watcher)
	return nil
}
