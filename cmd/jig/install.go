package main

import "github.com/urfave/cli/v2"

// installCommand puts jig's integrations in place; each integration adds its
// subcommand in its own file.
func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "put jig's integrations in place (Pi extension, Herdr, tmux, WezTerm, kitty)",
		Subcommands: []*cli.Command{
			installPiCommand(e),
			installHerdrCommand(e),
			installTmuxCommand(e), installWezTermCommand(e), installKittyCommand(e),
		},
	}
}
