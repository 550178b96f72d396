package main

import "github.com/urfave/cli/v2"

// piCommand groups what jig does for Pi.
func piCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "pi",
		Usage: "Pi's side of jig",
		Subcommands: []*cli.Command{
			piBridgeCommand(e),
		},
	}
}
