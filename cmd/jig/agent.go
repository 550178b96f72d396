package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"jig/agents/peer"
	"jig/exit"
	"jig/hot"
	"jig/hot/fast"
	"jig/install"
	"jig/render"
	"jig/transcript"
)

// extraCommands are the subcommands an agent has beyond those every agent
// shares, each in its agent's file here, listed after its hook.
var extraCommands = map[string]func(*env) *cli.Command{"claude": claudeStatusLineCommand}

// agentCommand is the `jig <agent>` command of a registered agent
// (peer.All, cmd/jig/registry.go), built from its descriptor.
func agentCommand(e *env, a peer.Agent) *cli.Command {
	var subs []*cli.Command
	if a.Hook != nil {
		subs = append(subs, hookCommand(e, a))
	}
	if extra, ok := extraCommands[a.Name]; ok {
		subs = append(subs, extra(e))
	}
	if a.Records != nil {
		list := func() ([]*transcript.Listed, error) { return a.Records.List(e.Getenv) }
		subs = append(subs, sessionsCommand(e, a.Name, a.Label+"'s", "from their "+a.Records.Kind+"s' heads", list), showCommand(e, a))
	}
	return &cli.Command{Name: a.Name, Usage: a.Usage, Subcommands: subs,
		UsageText: "jig " + a.Name + " COMMAND [options] [arguments]\n\nexample: jig " + a.Name + " sessions --cwd ."}
}

// hookCommand is `jig <agent> hook`: stdin to the agent's hook, its
// answer on stdout (hot.Env.Hook).
func hookCommand(e *env, a peer.Agent) *cli.Command {
	return &cli.Command{Name: "hook", Usage: a.Hook.Usage, UsageText: a.Hook.UsageText, Before: noArgs,
		Action: func(c *cli.Context) error {
			return fast.Hook(e.Env, a, func(err error) { sayError(e.Stderr, c, err) })
		}}
}

// sessionsCommand is `jig AGENT sessions`: the agent's sessions, newest
// first, read by list; from says where they are read from.
func sessionsCommand(e *env, agent, whose, from string, list func() ([]*transcript.Listed, error)) *cli.Command {
	return &cli.Command{
		Name:      "sessions",
		Usage:     "list " + whose + " sessions, newest first, " + from,
		UsageText: "jig " + agent + " sessions [--cwd DIR] [--json]\n\nexample: jig " + agent + " sessions --cwd . --json",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"}, &cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action:    func(c *cli.Context) error { return printSessions(c, e.Stdout, list) },
	}
}

// printSessions is a sessions command of an agent: its transcripts as
// list gives them, those started in --cwd, as JSON or a table; exit 1
// when there is none.
func printSessions(c *cli.Context, w io.Writer, list func() ([]*transcript.Listed, error)) error {
	if err := noArgs(c); err != nil {
		return err
	}
	infos, err := list()
	if err != nil {
		return err
	}
	if infos, err = inCWD(c, infos, func(in *transcript.Listed) string { return in.CWD }); err != nil {
		return err
	}
	if c.Bool("json") {
		writeIndented(w, nonNil(infos))
	} else if len(infos) > 0 {
		render.AgentSessions(w, infos)
	}
	if len(infos) == 0 {
		return exit.Silent(exit.None)
	}
	return nil
}

// nonNil is l, or an empty list for JSON's [] rather than null.
func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}

func showCommand(e *env, a peer.Agent) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show what a " + a.Label + " " + a.Records.Kind + " says: " + a.Records.Says,
		UsageText: "jig " + a.Name + " show FILE|ID [--json]\n\nexample: jig " + a.Name + " show " + a.Records.Example,
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			shown, err := a.Records.Show(c.Args().First(), e.Getenv)
			if err != nil {
				return err
			}
			return printShown(c, e.Stdout, shown, func() { shown.Print(e.Stdout) })
		},
	}
}

// agentInstallCommands are the `jig install <agent>` commands of the
// registered agents that give an Install.
func agentInstallCommands(e *env) []*cli.Command {
	var list []*cli.Command
	for _, a := range peer.All() {
		if a.Install != nil {
			list = append(list, installAgentCommand(e, a.Name, a.Install))
		}
	}
	return list
}

func installAgentCommand(e *env, name string, in *peer.Install) *cli.Command {
	return &cli.Command{Name: name, Usage: in.Usage, UsageText: in.UsageText, Before: noArgs,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}},
		Action: func(c *cli.Context) error {
			bin, err := hot.FastPath(e.Getenv)
			if err != nil {
				return err
			}
			if in.Run == nil { // one settings file, edited as every installer edits one
				path, err := in.Settings(e.Getenv)
				if err != nil {
					return err
				}
				f, err := install.EditFile(path, in.Change(bin, c.Bool("uninstall")))
				if err == nil {
					sayLines(e.Stdout, f.Line())
				}
				return err // a settings file jig refuses to edit is bad input
			}
			res, err := in.Run(peer.Installing{Getenv: e.Getenv, Bin: bin, Uninstall: c.Bool("uninstall")})
			for _, n := range res.Notes {
				e.warnf(c, "%s", n)
			}
			if err != nil {
				return err
			}
			sayLines(e.Stdout, res.Changed...)
			for _, p := range res.Unchanged {
				sayLines(e.Stdout, install.File{Path: p, Change: install.Unchanged}.Line())
			}
			return nil
		}}
}
