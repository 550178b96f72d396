package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// installPiCommand puts jig's Pi extension (embedded in this binary) where
// Pi discovers extensions: $PI_CODING_AGENT_DIR/extensions, else
// ~/.pi/agent/extensions.
func installPiCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "pi",
		Usage:     "install jig's Pi extension (jig-session) where Pi loads extensions",
		UsageText: "jig install pi [--uninstall]\n\nexample: PI_CODING_AGENT_DIR=~/.pi/agent jig install pi",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the extension instead"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			p := install.Pi{Getenv: e.getenv}
			if c.Bool("uninstall") {
				f, err := p.Uninstall()
				if err != nil {
					return err
				}
				if f.Change == install.Unchanged {
					fmt.Fprintf(e.stdout, "no extension at %s\n", f.Path)
					return nil
				}
				sayLines(e.stdout, f.Line())
				return nil
			}
			f, err := p.Install()
			if err != nil {
				return err
			}
			sayLines(e.stdout, f.Line())
			return nil
		},
	}
}
