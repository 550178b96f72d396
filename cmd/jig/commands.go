package main

import (
	"github.com/urfave/cli/v2"

	"jig/cmdline"
)

// commands lists jig's top-level commands, each in its own file, under
// the headings of `jig --help` (cmdline.Headings).
func commands(e *env) []*cli.Command { return cmdline.Grouped(allCommands(e)) }

func allCommands(e *env) []*cli.Command {
	list := []*cli.Command{
		terminalCommand(e),
		sessionCommand(e),
		boardCommand(e),
		serveCommand(e),
		installCommand(e),
		requestCommand(e),
		herdrCommand(e),
		panelCommand(e),
		piCommand(e),
		configCommand(e),
		ticketCommand(e),
	}
	list = append(list, agentCommands(e)...) // claude, codex, gemini, qwen: cmd/jig/registry.go
	return append(list, opencodeCommand(e), demoCommand(e), completionCommand(e), versionCommand(e))
}
