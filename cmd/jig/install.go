package main

import "github.com/urfave/cli/v2"

// installCommand puts jig's integrations in place; each integration adds its
// subcommand in its own file.
func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "put jig's integrations in place (Pi extension, Claude Code and Codex hooks, Herdr, tmux, WezTerm, kitty)",
		UsageText: "jig install COMMAND [options]\n\n" +
			"example: jig install tmux --write",
		Subcommands: []*cli.Command{
			installPiCommand(e),
			installClaudeCommand(e),
			installCodexCommand(e),
			installHerdrCommand(e),
			installTmuxCommand(e), installWezTermCommand(e), installKittyCommand(e),
		},
	}
}
