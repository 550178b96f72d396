package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
	"jig/status"
)

// configCommand prints the configuration the ticket and workflow are read
// with, and where each value came from (docs/ticket.md).
func configCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "print the effective configuration (memory, workflow, jira) and where each value came from",
		UsageText: "jig config\n\n" +
			"Values come from the project's .pi/settings.json (its \"jig\" key), then $JIG_CONFIG\n" +
			"(else ${XDG_CONFIG_HOME:-~/.config}/jig/config.json), then Pi's settings.json in its agent dir.\n" +
			"A malformed file gives no value; it is named on stderr and the exit code is 4.\n\n" +
			"example: jig config",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cfg := loadConfig(e.Getenv)
			if e.StdoutTTY {
				render.Config(e.Stdout, cfg)
			} else {
				writeIndented(e.Stdout, render.ConfigJSON(cfg))
			}
			// each refused file on its own line, and exit 4
			errs := cfg.Problems()
			if len(errs) == 0 {
				return nil
			}
			for _, err := range errs[:len(errs)-1] {
				e.warnf(c, "%v", err)
			}
			return status.Mark(status.ErrBadInput, errors.New(errs[len(errs)-1].Error())) // its words, not its kind
		},
	}
}

// agentDir is Pi's agent dir by Pi's rule (pi.AgentDir), "" when there is
// none (no HOME and no PI_CODING_AGENT_DIR).
func agentDir(getenv func(string) string) string {
	dir, _ := pi.AgentDir(getenv)
	return dir
}
