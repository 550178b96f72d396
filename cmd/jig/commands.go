package main

import (
	"slices"

	"github.com/urfave/cli/v2"

	"jig/agents/peer"
	"jig/cmdline"
)

// commands lists jig's top-level commands, each in its own file, under
// the headings of `jig --help` (cmdline.Headings). A command line that
// starts with one's name (`jig session for-terminal %3`, as a status line
// runs it) gets that one alone: building all of them, with every flag,
// was 0.2 M instructions of a status line's 2.7 M. Anything else (help,
// completion, a flag or an unknown word first) gets all of them.
func commands(e *env, args []string) []*cli.Command {
	all := topCommands(e)
	if len(args) > 1 && !slices.ContainsFunc(args, isCompletion) {
		if i := slices.IndexFunc(all, func(c topCommand) bool { return c.name == args[1] }); i >= 0 {
			return cmdline.Grouped([]*cli.Command{all[i].build()})
		}
	}
	list := make([]*cli.Command, len(all))
	for i, c := range all {
		list[i] = c.build()
	}
	return cmdline.Grouped(list)
}

func isCompletion(arg string) bool {
	return arg == cmdline.CompletionRequest || arg == "--"+cli.BashCompletionFlag.Names()[0]
}

// A topCommand is a top-level command's name and how to build it;
// TestTopCommandNames holds the two to each other.
type topCommand struct {
	name  string
	build func() *cli.Command
}

func topCommands(e *env) []topCommand {
	of := func(name string, build func(*env) *cli.Command) topCommand {
		return topCommand{name, func() *cli.Command { return build(e) }}
	}
	list := []topCommand{
		of("terminal", terminalCommand), of("session", sessionCommand), of("board", boardCommand),
		of("serve", serveCommand), of("install", installCommand), of("request", requestCommand),
		of("herdr", herdrCommand), of("panel", panelCommand), of("pi", piCommand),
		of("config", configCommand), of("ticket", ticketCommand),
	}
	for _, a := range peer.All() {
		if a.Name != "" { // else its command is its own (Pi's)
			list = append(list, topCommand{a.Name, func() *cli.Command { return agentCommand(e, a) }})
		}
	}
	return append(list, of("opencode", opencodeCommand), of("demo", demoCommand),
		of("completion", completionCommand), of("version", versionCommand))
}
