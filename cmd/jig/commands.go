package main

import (
	"github.com/urfave/cli/v2"

	"jig/cmdline"
)

// commands lists jig's top-level commands, each in its own file, under the
// headings of `jig --help`: what a new user runs first, first. A command
// no heading names goes under the agents'.
func commands(e *env) []*cli.Command {
	return cmdline.Grouped(allCommands(e), "Per agent", cmdline.Group{Name: "Getting started", Commands: []string{"demo", "board", "install"}},
		cmdline.Group{Name: "Look and steer", Commands: []string{"session", "request", "panel", "terminal", "ticket", "config"}},
		cmdline.Group{Name: "Shell", Commands: []string{"completion", "version"}})
}

func allCommands(e *env) []*cli.Command {
	return []*cli.Command{
		terminalCommand(e),
		sessionCommand(e),
		boardCommand(e),
		installCommand(e),
		requestCommand(e),
		herdrCommand(e),
		panelCommand(e),
		piCommand(e),
		configCommand(e),
		ticketCommand(e),
		claudeCommand(e),
		codexCommand(e),
		demoCommand(e),
		completionCommand(e),
		versionCommand(e),
	}
}
