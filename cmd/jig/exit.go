package main

import (
	"github.com/urfave/cli/v2"

	"jig/exit"
)

// named is a command's error as run prints it: prefixed with the command,
// its code from its kind (exit.Named).
func named(c *cli.Context, err error) error { return exit.Named(commandName(c), err) }
