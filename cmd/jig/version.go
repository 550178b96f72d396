package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/cmdline"
)

func init() {
	// --version only: urfave's -v alias would be taken for "verbose".
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print jig's version and revision"}
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print jig's version and the revision it was built from",
		UsageText: "jig version\n\nSame as jig --version. A build from a checkout says (devel).\n\nexample: jig version",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			fmt.Fprintln(e.Stdout, cmdline.Version())
			return nil
		},
	}
}
