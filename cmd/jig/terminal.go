package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/exit"
	"jig/render"
	"jig/terminal"
)

func terminalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "terminal",
		Usage:     "print the terminal ids this shell runs in, innermost first",
		UsageText: "jig terminal [--json]\n\nexample: jig terminal --json",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			ids := terminal.Detect(e.Getenv)
			if c.Bool("json") || !e.StdoutTTY {
				data, _ := json.Marshal(ids)
				fmt.Fprintf(e.Stdout, "%s\n", data)
			} else {
				for _, id := range ids {
					fmt.Fprintf(e.Stdout, "%s\t%s\n", render.Clean(id.ID), render.Clean(id.From))
				}
			}
			if len(ids) == 0 {
				return exit.Silent(exit.None)
			}
			return nil
		},
	}
}
