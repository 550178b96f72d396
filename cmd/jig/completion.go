package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/completion"
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		UsageText: "jig completion bash|zsh|fish\n\n" +
			"example: source <(jig completion bash)    # or add it to ~/.bashrc\n" +
			"         jig completion fish > ~/.config/fish/completions/jig.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "want one shell: bash, zsh or fish")
			}
			script, ok := completion.Script(c.Args().First())
			if !ok {
				return usageError(c, "unknown shell %q: want bash, zsh or fish", c.Args().First())
			}
			fmt.Fprint(e.Stdout, script)
			return nil
		},
	}
}
