package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

// sessionContextCommand draws what fills a session's context, as Pi's
// /context shows it: the Pi extension runs it, and the Context mod draws the
// same layout.
func sessionContextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "draw what fills a session's context: a grid, each part, the tools, skills and files",
		UsageText: "jig session context [ID]\n\nexample: jig session context 0190a7c2-5b1e-7c3d-9f00-4a1b2c3d4e5f",
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			_, s, err := e.resolve(status.Target{Session: id}, "a session ID")
			if err != nil {
				return err
			}
			fmt.Fprintln(e.Stdout, strings.Join(render.ContextLines(s.ContextDetail), "\n"))
			return nil
		},
	}
}
