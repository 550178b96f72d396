package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// fileHost is a host jig installs one file of its own into: Pi's extension, OpenCode's plugin
// (install.Pi and install.OpenCode say where).
type fileHost interface {
	Install() (install.File, error)
	Uninstall() (install.File, error)
}

// fileInstallCommand is `jig install HOST [--uninstall]`; what names the file ("no WHAT at PATH").
func fileInstallCommand(e *env, name, usage, usageText, what string, h fileHost) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, UsageText: usageText,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove the " + what + " instead"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			do := h.Install
			if c.Bool("uninstall") {
				do = h.Uninstall
			}
			f, err := do()
			switch {
			case err != nil:
				return err
			case c.Bool("uninstall") && f.Change == install.Unchanged:
				fmt.Fprintf(e.Stdout, "no %s at %s\n", what, f.Path)
			default:
				sayLines(e.Stdout, f.Line())
			}
			return nil
		},
	}
}
