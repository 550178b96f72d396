package main

import "github.com/urfave/cli/v2"

// commands lists jig's top-level commands; each lives in its own file.
func commands(e *env) []*cli.Command {
	return []*cli.Command{
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
		claudeCommand(e),
		codexCommand(e),
		geminiCommand(e),
		qwenCommand(e),
		opencodeCommand(e),
		demoCommand(e),
		completionCommand(e),
		versionCommand(e),
	}
}
