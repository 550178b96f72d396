package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/install"
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
			"them and says how to reset the options they set. With TPM, scripts/tmux/jig.tmux keeps\n" +
			"your own status-right instead.\n\n" +
			"example: jig install tmux --pane-border --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "pane-border", Usage: "add the pane-border variant"},
			&cli.BoolFlag{Name: "write", Usage: "put the lines in the config file"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the lines --write put in the config file"},
			&cli.StringFlag{Name: "config", Usage: "the tmux config `FILE` for --write and --uninstall"},
		},
		Action: configAction(e, func(c *cli.Context) configHost {
			return install.Tmux{Getenv: e.Getenv, PaneBorder: c.Bool("pane-border"), Config: c.String("config")}
		}, hostWords{
			print: func(l install.Lines) string { return l.Text },
			wrote: func(edit install.Edit) string { return "reload with: " + edit.Reload },
			uninstall: func(edit install.Edit) string {
				if edit.Reload == "" {
					return "no tmux options to reset"
				}
				return "to put tmux's own options back without restarting it: " + edit.Reload
			},
		}),
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
			"~/.wezterm.lua); --uninstall removes both, and the config when jig made it.\n\n" +
			"example: jig install wezterm --tab-title --write",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "tab-title", Usage: "show each tab's agent in its title too"},
			&cli.BoolFlag{Name: "write", Usage: "save jig.lua and add the line to the config"},
			&cli.BoolFlag{Name: "uninstall", Usage: "remove jig.lua and the line --write added"},
			&cli.StringFlag{Name: "config", Usage: "the wezterm.lua `FILE` for --write and --uninstall"},
		},
		Action: configAction(e, func(c *cli.Context) configHost {
			return install.WezTerm{Getenv: e.Getenv, TabTitle: c.Bool("tab-title"), Config: c.String("config")}
		}, hostWords{
			print: func(l install.Lines) string {
				return fmt.Sprintf("-- jig's module goes to %s (jig install wezterm --write puts it there).\n"+
					"-- Add to wezterm.lua, before `return config`:\n%s", l.File, l.Text)
			},
			wrote:     func(edit install.Edit) string { return "saved " + edit.Saved },
			uninstall: func(install.Edit) string { return "WezTerm reloads it by itself" },
		}),
	}
}
