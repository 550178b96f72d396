package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"jig/install"
	"jig/render"
)

// installCommand puts jig's integrations in place; each integration adds its
// subcommand in its own file, and package install does the work.
func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "put jig's integrations in place (Pi extension, OpenCode plugin, Claude Code and Codex hooks, Herdr, tmux, WezTerm, kitty)",
		UsageText: "jig install COMMAND [options]\n\n" +
			"example: jig install tmux --write",
		Subcommands: append(append([]*cli.Command{
			fileInstallCommand(e, "pi", "install jig's Pi extension (jig-session) where Pi loads extensions",
				"jig install pi [--uninstall]\n\nexample: PI_CODING_AGENT_DIR=~/.pi/agent jig install pi", "extension", install.Pi{Getenv: e.Getenv}),
			installClaudeCommand(e),
		}, agentInstallCommands(e)...), // codex, gemini, qwen, …: cmd/jig/registry.go
			fileInstallCommand(e, "opencode", "install jig's OpenCode plugin (jig.js) where OpenCode loads global plugins",
				"jig install opencode [--uninstall]\n\nexample: jig install opencode   # ~/.config/opencode/plugin/jig.js", "plugin", install.OpenCode{Getenv: e.Getenv}),
			installHerdrCommand(e), installTmuxCommand(e), installWezTermCommand(e), installKittyCommand(e)),
	}
}

// sayLines prints lines, cleaned, one a line.
func sayLines(w io.Writer, lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(w, render.Clean(l))
	}
}

// configHost is a host whose config file gets jig's lines: install.Tmux,
// install.WezTerm, install.Kitty.
type configHost interface {
	Lines() (install.Lines, error)
	Write() (install.Edit, error)
	Uninstall() (install.Edit, error)
}

// hostWords are what `jig install HOST` says around what a configHost did:
// the lines to print, and the hint after --write and after --uninstall.
type hostWords struct {
	print            func(install.Lines) string
	wrote, uninstall func(install.Edit) string
}

// configAction prints the host's lines, or with --write or --uninstall
// puts them in its config or takes them out, and says what it did.
func configAction(e *env, host func(c *cli.Context) configHost, words hostWords) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := noArgs(c); err != nil {
			return err
		}
		if c.Bool("write") && c.Bool("uninstall") {
			return usageError(c, "--write and --uninstall do opposite things: give one")
		}
		h := host(c)
		switch {
		case c.Bool("uninstall"):
			edit, err := h.Uninstall()
			if err != nil {
				return err
			}
			for _, l := range edit.Lines(true, words.uninstall(edit)) {
				e.warnf(c, "%s", l)
			}
		case c.Bool("write"):
			edit, err := h.Write()
			if err != nil {
				return err
			}
			for _, l := range edit.Lines(false, words.wrote(edit)) {
				e.warnf(c, "%s", l)
			}
		default:
			lines, err := h.Lines()
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.Stdout, words.print(lines))
			return err
		}
		return nil
	}
}
