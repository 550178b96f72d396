package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// kitty: a watcher kitty loads into its own process (scripts/kitty/jig_kitty.py)
// sets the title of each window that runs an agent. Nothing runs in the
// shells, and kitty needs no remote control: kitty.conf names the watcher.

func installKittyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "kitty",
		Usage: "print (or --write) the kitty.conf lines that put each window's agent in its title",
		UsageText: "jig install kitty [--write | --uninstall] [--config FILE]\n\n" +
			"Prints the kitty.conf lines that load jig's watcher (jig_kitty.py, next to kitty.conf) into\n" +
			"kitty: each window that runs an agent gets its project and status line as its title, which\n" +
			"the tab bar shows. It needs no remote control and runs nothing in shells; jig runs only\n" +
			"while a session file exists. --write saves jig_kitty.py and puts the line in FILE between\n" +
			"jig's begin and end lines, replacing what an earlier --write put there; --uninstall removes\n" +
			"them and the watcher file, and kitty.conf when nothing else is left in it. FILE default:\n" +
			"$KITTY_CONFIG_DIRECTORY/kitty.conf, else ~/.config/kitty/kitty.conf. kitty loads a watcher\n" +
			"when it starts: restart it.\n\n" +
			"example: jig install kitty --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "save jig_kitty.py and add the lines to kitty.conf once"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the lines and the watcher file"},
			&cli.StringFlag{Name: "config", Usage: "the kitty.conf `FILE`"},
		},
		Action: configAction(e, func(c *cli.Context) configHost {
			return install.Kitty{Getenv: e.Getenv, Config: c.String("config")}
		}, hostWords{
			print: func(l install.Lines) string {
				return fmt.Sprintf("# jig's watcher goes to %s (jig install kitty --write puts it there).\n"+
					"# Add to kitty.conf, then restart kitty (no remote control needed):\n%s", l.File, l.Text)
			},
			wrote:     func(edit install.Edit) string { return "saved " + edit.Saved + "; restart kitty to load it" },
			uninstall: func(install.Edit) string { return "restart kitty to unload the watcher" },
		}),
	}
}
