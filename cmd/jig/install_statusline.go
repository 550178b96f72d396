package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/google/renameio/v2"
	"github.com/urfave/cli/v2"

	"jig/scripts"
	"jig/status"
)

// The status-line integrations: each prints the lines for the host's config
// with the absolute path of this jig (a tmux #() job or a WezTerm child runs
// without the shell's PATH), or with --write puts them in place once.

func installTmuxCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tmux",
		Usage: "print (or --write) the tmux status-line lines",
		UsageText: "jig install tmux [--pane-border] [--write | --uninstall] [--config FILE]\n\n" +
			"Prints tmux.conf lines that show the focused pane's agent in status-right; with\n" +
			"--pane-border also each pane's own agent in its border. --write puts them in FILE\n" +
			"(default: ~/.config/tmux/tmux.conf when it exists, else ~/.tmux.conf) between jig's\n" +
			"begin and end lines, replacing what an earlier --write put there; --uninstall removes\n" +
			"them. With TPM, scripts/tmux/jig.tmux keeps your own status-right instead.\n\n" +
			"example: jig install tmux --pane-border --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "pane-border", Usage: "add the pane-border variant"},
			&cli.BoolFlag{Name: "write", Usage: "put the lines in the config file"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the lines --write put in the config file"},
			&cli.StringFlag{Name: "config", Usage: "the tmux config `FILE` for --write and --uninstall"},
		},
		Action: func(c *cli.Context) error {
			bin, err := e.jigPath(c)
			if err != nil {
				return err
			}
			text := snippet("tmux/jig.conf")
			if c.Bool("pane-border") {
				text += snippet("tmux/pane-border.conf")
			}
			if strings.ContainsAny(bin, "'\n") {
				return errorf(c, exitFailed, "jig's path %q cannot go in a tmux.conf string", bin)
			}
			text = strings.ReplaceAll(text, "#(jig ", "#("+strings.ReplaceAll(shellWord(bin), "#", "##")+" ")
			if !c.Bool("write") && !c.Bool("uninstall") {
				_, err := fmt.Fprint(e.stdout, text)
				return err
			}
			file := c.String("config")
			if file == "" {
				file = e.configFile(".config/tmux/tmux.conf", ".tmux.conf")
			}
			b := block{file: file, comment: "#", name: "tmux"}
			if c.Bool("uninstall") {
				return e.removeBlock(c, b, "restart tmux (tmux kill-server) to drop the options it set")
			}
			return e.writeBlock(c, b, text, atEnd, "reload with: tmux source-file "+file)
		},
	}
}

func installWezTermCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "wezterm",
		Usage: "print (or --write) the WezTerm status-bar lines",
		UsageText: "jig install wezterm [--tab-title] [--write | --uninstall] [--config FILE]\n\n" +
			"Prints the line wezterm.lua needs to load jig's module (jig.lua, next to the config),\n" +
			"which shows the focused pane's agent in the right status; --tab-title shows each tab's\n" +
			"agent in its title too. --write saves jig.lua and puts the line before the config's\n" +
			"final `return`, between jig's begin and end lines, replacing what an earlier --write put\n" +
			"there (FILE default: $WEZTERM_CONFIG_FILE, ~/.config/wezterm/wezterm.lua,\n" +
			"~/.wezterm.lua); --uninstall removes both.\n\n" +
			"example: jig install wezterm --tab-title --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "tab-title", Usage: "show each tab's agent in its title too"},
			&cli.BoolFlag{Name: "write", Usage: "save jig.lua and add the line to the config"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove jig.lua and the line --write added"},
			&cli.StringFlag{Name: "config", Usage: "the wezterm.lua `FILE` for --write and --uninstall"},
		},
		Action: func(c *cli.Context) error {
			bin, err := e.jigPath(c)
			if err != nil {
				return err
			}
			file := c.String("config")
			if file == "" {
				file = e.getenv("WEZTERM_CONFIG_FILE")
			}
			if file == "" {
				file = filepath.Join(e.configHome(), "wezterm", "wezterm.lua")
				home := filepath.Join(e.getenv("HOME"), ".wezterm.lua")
				if _, err := os.Stat(file); err != nil {
					if _, err := os.Stat(home); err == nil {
						file = home
					}
				}
			}
			module := filepath.Join(filepath.Dir(file), "jig.lua")
			opts := "bin = " + luaQuote(bin)
			if c.Bool("tab-title") {
				opts += ", tab_title = true"
			}
			line := fmt.Sprintf("dofile(%s).setup { %s }\n", luaQuote(module), opts)
			if c.Bool("uninstall") {
				return e.uninstallWezTerm(c, file, module)
			}
			if !c.Bool("write") {
				_, err := fmt.Fprintf(e.stdout, "-- jig's module goes to %s (jig install wezterm --write puts it there).\n-- Add to wezterm.lua, before `return config`:\n%s", module, line)
				return err
			}
			return e.writeWezTerm(c, file, module, line)
		},
	}
}

// snippet is a shipped file's text.
func snippet(name string) string {
	data, err := scripts.FS.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: a missing one is a build bug
	}
	return string(data)
}

// jigPath is the jig a host's config should run: $JIG_BIN when it is an
// absolute path (as the Pi extension honours it), else the absolute path of
// the running jig.
func (e *env) jigPath(c *cli.Context) (string, error) {
	if err := noArgs(c); err != nil {
		return "", err
	}
	if p := e.getenv("JIG_BIN"); filepath.IsAbs(p) {
		return p, nil
	}
	bin, err := os.Executable()
	if err != nil {
		return "", errorf(c, exitFailed, "cannot find jig's own path: %v", err)
	}
	return bin, nil
}

// configHome is $XDG_CONFIG_HOME, else ~/.config.
func (e *env) configHome() string {
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(e.getenv("HOME"), ".config")
}

// configFile picks the config file for --write: the XDG one (xdg, relative
// to ~, moved under $XDG_CONFIG_HOME when set) when it exists, else the
// home one.
func (e *env) configFile(xdg, home string) string {
	p := filepath.Join(e.configHome(), strings.TrimPrefix(xdg, ".config/"))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return filepath.Join(e.getenv("HOME"), home)
}

// block is what `jig install NAME --write` adds to a config file: lines
// between a begin and an end line, in the file's comment syntax, so that a
// later --write replaces exactly them (a variant added afterwards takes
// effect) and --uninstall removes exactly them.
type block struct {
	file, comment, name string
}

func (b block) begin() string { return b.comment + " jig install " + b.name + ": begin\n" }
func (b block) end() string   { return b.comment + " jig install " + b.name + ": end\n" }

// find is where the block is in data: [i, j), or ok false.
func (b block) find(data []byte) (i, j int, ok bool) {
	i = bytes.Index(data, []byte(b.begin()))
	if i < 0 || (i > 0 && data[i-1] != '\n') {
		return 0, 0, false
	}
	end := bytes.Index(data[i:], []byte(b.end()))
	if end < 0 {
		return 0, 0, false
	}
	return i, i + end + len(b.end()), true
}

// atEnd places a new block at the end of a file.
func atEnd(old []byte) (int, bool) { return len(old), true }

// readConfig reads a config file through a dotfiles manager's link (the
// file it points at is the one edited); a missing file is empty.
func readConfig(file string) (string, []byte, fs.FileMode, error) {
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(file); err == nil {
		perm = fi.Mode().Perm()
	}
	old, err := status.ReadFile(file, status.FollowLinks, status.MaxFileSize) // a fifo there must not hang install
	if os.IsNotExist(err) {
		err = nil
	}
	return file, old, perm, err
}

// writeBlock puts text in b's file between b's lines, in one step:
// replacing the block already there, else where place says. It says on
// stderr what it did.
func (e *env) writeBlock(c *cli.Context, b block, text string, place func([]byte) (int, bool), hint string) error {
	file, old, perm, err := readConfig(b.file)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	want := b.begin() + text + b.end()
	var updated []byte
	did := "added to"
	if i, j, ok := b.find(old); ok {
		did = "updated jig's lines in"
		if string(old[i:j]) == want {
			fmt.Fprintf(e.stderr, "jig: %s: %s already has jig's lines\n", commandName(c), file)
			return nil
		}
		updated = append(append(append([]byte{}, old[:i]...), want...), old[j:]...)
	} else {
		at, ok := place(old)
		if !ok {
			return errorf(c, exitFailed, "%s has no final `return`: add these lines to it yourself: %s",
				file, strings.TrimSpace(text))
		}
		head := old[:at]
		if len(head) > 0 && !bytes.HasSuffix(head, []byte("\n")) {
			want = "\n" + want
		}
		updated = append(append(append([]byte{}, head...), want...), old[at:]...)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if err := renameio.WriteFile(file, updated, perm); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	fmt.Fprintf(e.stderr, "jig: %s: %s %s; %s\n", commandName(c), did, file, hint)
	return nil
}

// removeBlock takes b's lines out of its file, in one step, and nothing
// else; a file without them is left as it is.
func (e *env) removeBlock(c *cli.Context, b block, hint string) error {
	file, old, perm, err := readConfig(b.file)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	i, j, ok := b.find(old)
	if !ok {
		fmt.Fprintf(e.stderr, "jig: %s: %s has no jig lines\n", commandName(c), file)
		return nil
	}
	updated := append(append([]byte{}, old[:i]...), old[j:]...)
	if err := renameio.WriteFile(file, updated, perm); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	fmt.Fprintf(e.stderr, "jig: %s: removed jig's lines from %s; %s\n", commandName(c), file, hint)
	return nil
}

// finalReturn is the `return config` that ends a wezterm.lua.
var finalReturn = regexp.MustCompile(`(?m)^return\b.*\s*\z`)

// writeWezTerm saves jig.lua and puts line before the config's final
// return, between jig's lines; a config without one is left alone with a
// hint, and a missing config is created.
func (e *env) writeWezTerm(c *cli.Context, file, module, line string) error {
	if err := os.MkdirAll(filepath.Dir(module), 0o755); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if err := renameio.WriteFile(module, []byte(snippet("wezterm/jig.lua")), 0o644); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if _, err := os.Stat(file); os.IsNotExist(err) {
		fresh := "local wezterm = require 'wezterm'\nlocal config = wezterm.config_builder()\nreturn config\n"
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return errorf(c, exitFailed, "%v", err)
		}
		if err := renameio.WriteFile(file, []byte(fresh), 0o644); err != nil {
			return errorf(c, exitFailed, "%v", err)
		}
	}
	beforeReturn := func(old []byte) (int, bool) {
		loc := finalReturn.FindIndex(old)
		if loc == nil {
			return 0, false
		}
		return loc[0], true
	}
	b := block{file: file, comment: "--", name: "wezterm"}
	return e.writeBlock(c, b, line, beforeReturn, "saved "+module)
}

// uninstallWezTerm removes jig's lines from the config and the jig.lua
// --write saved.
func (e *env) uninstallWezTerm(c *cli.Context, file, module string) error {
	if err := e.removeBlock(c, block{file: file, comment: "--", name: "wezterm"}, "WezTerm reloads it by itself"); err != nil {
		return err
	}
	if err := os.Remove(module); err != nil && !os.IsNotExist(err) {
		return errorf(c, exitFailed, "%v", err)
	}
	return nil
}

// shellWord is s as one /bin/sh word that can sit inside a single-quoted
// tmux string: bare when it can, else double-quoted.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-@%:,") == "" {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

// luaQuote is s as a Lua string literal.
func luaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\\' || ch == '\'':
			b.WriteByte('\\')
			b.WriteByte(ch)
		case ch < 0x20 || ch == 0x7f:
			fmt.Fprintf(&b, "\\%03d", ch)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
