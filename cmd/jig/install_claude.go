package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/claude"
	"jig/status"
)

// installClaudeCommand merges jig's hooks and statusLine command into
// Claude Code's settings: the user's (~/.claude/settings.json, or under
// $CLAUDE_CONFIG_DIR) or, with --project, this folder's .claude/settings.json.
func installClaudeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "claude",
		Usage: "merge jig's hooks and statusLine into Claude Code's settings",
		UsageText: "jig install claude [--project] [--uninstall]\n\n" +
			"The hooks run `jig claude hook` on every event; the statusLine runs `jig claude statusline`,\n" +
			"both by jig's absolute path ($JIG_BIN when set). The file is edited in place: every other\n" +
			"key stays as it was, in its order and spacing, and --uninstall gives back the same bytes.\n\n" +
			"example: jig install claude --project",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "project", Usage: "this folder's .claude/settings.json instead of the user's settings"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"},
		},
		Action: func(c *cli.Context) error {
			bin, err := e.jigPath(c)
			if err != nil {
				return err
			}
			path := filepath.Join(claude.AgentDir(e.getenv), "settings.json")
			if c.Bool("project") {
				wd, err := os.Getwd()
				if err != nil {
					return errorf(c, exitFailed, "%v", err)
				}
				path = filepath.Join(wd, ".claude", "settings.json")
			}
			if path == "settings.json" {
				return errorf(c, exitFailed, "no HOME or CLAUDE_CONFIG_DIR to find Claude's settings in")
			}
			old, err := status.ReadFileNoFollow(path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return errorf(c, exitFailed, "%v", err)
			}
			var out []byte
			var changed bool
			var notes []string
			if c.Bool("uninstall") {
				out, changed, err = claude.Uninstall(old)
			} else {
				out, changed, notes, err = claude.Install(old, bin)
			}
			if err != nil {
				return errorf(c, exitBadInput, "%s: %v", path, err)
			}
			for _, n := range notes {
				fmt.Fprintf(e.stderr, "jig: install claude: %s\n", n)
			}
			if !changed {
				fmt.Fprintf(e.stdout, "%s (up to date)\n", path)
				return nil
			}
			mode := os.FileMode(0o644)
			if fi, err := os.Stat(path); err == nil {
				mode = fi.Mode().Perm()
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			if err := writeFileMode(path, out, mode); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			fmt.Fprintln(e.stdout, path)
			return nil
		},
	}
}
