package main

import "github.com/urfave/cli/v2"

// commands lists jig's top-level commands; each lives in its own file.
func commands(e *env) []*cli.Command {
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
