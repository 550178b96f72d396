package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// installOpenCodeCommand puts jig's OpenCode plugin (embedded in this
// binary) in OpenCode's global plugin folder.
func installOpenCodeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "opencode",
		Usage:     "install jig's OpenCode plugin (jig.js) where OpenCode loads global plugins",
		UsageText: "jig install opencode [--uninstall]\n\nexample: jig install opencode   # ~/.config/opencode/plugin/jig.js",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the plugin instead"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			o := install.OpenCode{Getenv: e.getenv}
			if c.Bool("uninstall") {
				f, err := o.Uninstall()
				if err != nil {
					return err
				}
				if f.Change == install.Unchanged {
					fmt.Fprintf(e.stdout, "no plugin at %s\n", f.Path)
					return nil
				}
				sayLines(e.stdout, f.Line())
				return nil
			}
			f, err := o.Install()
			if err != nil {
				return err
			}
			sayLines(e.stdout, f.Line())
			return nil
		},
	}
}
