package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"jig/codex"
	"jig/install"
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
				e.warnf(c, "%s", n)
			}
			sayLines(e.stdout, res.Changed...)
			for _, p := range res.Unchanged {
				sayLines(e.stdout, install.File{Path: p, Change: install.Unchanged}.Line())
			}
			return nil
		},
	}
}
