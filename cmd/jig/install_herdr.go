package main

import (
	"github.com/urfave/cli/v2"

	"jig/install"
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
			if err := noArgs(c); err != nil {
				return err
			}
			h := install.Herdr{Getenv: e.Getenv, App: c.Bool("app"), Plugin: c.Bool("plugin")}
			var r install.HerdrReport
			var err error
			if c.Bool("uninstall") {
				r, err = h.Uninstall()
			} else {
				r, err = h.Install()
			}
			sayLines(e.Stdout, r.Lines()...) // what was done before an error too
			if err != nil {
				return err
			}
			return nil
		},
	}
}
