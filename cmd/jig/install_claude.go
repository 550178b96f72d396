package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// installClaudeCommand merges jig's hooks and statusLine command into
// Claude Code's settings: the user's (~/.claude/settings.json, or under
// $CLAUDE_CONFIG_DIR) or, with --project, this folder's .claude/settings.json.
func installClaudeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "claude",
		Usage: "merge jig's hooks and statusLine into Claude Code's settings",
		UsageText: "jig install claude [--project] [--uninstall]\n\n" +
			"The hooks run `jig claude hook` on every event; the statusLine runs `jig claude statusline`\n" +
			"(wrapping a statusLine command of yours: `jig claude statusline --then '<yours>'`).\n" +
			"jig is run by its absolute path ($JIG_BIN when set). Everything else in the file stays.\n\n" +
			"example: jig install claude --project",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "project", Usage: "this folder's .claude/settings.json instead of the user's settings"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cl := install.Claude{Getenv: e.Getenv, Project: c.Bool("project")}
			var f install.File
			var notes []string
			var err error
			if c.Bool("uninstall") {
				f, err = cl.Uninstall()
			} else {
				f, notes, err = cl.Install()
			}
			for _, n := range notes {
				fmt.Fprintf(e.Stderr, "jig: install claude: %s\n", n)
			}
			if err != nil {
				return err // a settings file jig refuses to edit is bad input
			}
			sayLines(e.Stdout, f.Line())
			return nil
		},
	}
}
