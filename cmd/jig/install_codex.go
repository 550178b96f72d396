package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/codex"
	"jig/install"
	"jig/render"
	"jig/status"
)

// installCodexCommand merges jig's hooks into Codex's hooks.json and
// trusts them in its config.toml.
func installCodexCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "codex",
		Usage: "merge jig's hooks into Codex CLI's hooks.json and trust them in its config.toml",
		UsageText: "jig install codex [--uninstall]\n\n" +
			"The hooks run `jig codex hook` (by jig's absolute path) on every event of a session, in\n" +
			"$CODEX_HOME/hooks.json (else ~/.codex); config.toml records them as trusted, as Codex does.\n" +
			"Everything else in both files stays as it is.\n\n" +
			"example: jig install codex",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}},
		Action: func(c *cli.Context) error {
			bin, err := install.JigPath(e.getenv)
			if err != nil {
				return err
			}
			res, err := codex.Install(codex.Home(e.getenv), bin, c.Bool("uninstall"))
			if bad := (*codex.BadFileError)(nil); errors.As(err, &bad) {
				return status.Mark(status.ErrBadInput, err)
			} else if err != nil {
				return err
			}
			for _, n := range res.Notes {
				fmt.Fprintf(e.stderr, "jig: %s: %s\n", commandName(c), render.Clean(n))
			}
			for _, p := range res.Changed {
				fmt.Fprintln(e.stdout, render.Clean(p))
			}
			for _, p := range res.Unchanged {
				fmt.Fprintf(e.stdout, "%s (up to date)\n", render.Clean(p))
			}
			return nil
		},
	}
}
