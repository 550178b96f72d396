package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"jig/install"
)

// installCommand puts jig's integrations in place; each integration adds its
// subcommand in its own file, and package install does the work.
func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "put jig's integrations in place (Pi extension, Claude Code and Codex hooks, Herdr, tmux, WezTerm, kitty)",
		UsageText: "jig install COMMAND [options]\n\n" +
			"example: jig install tmux --write",
		Subcommands: []*cli.Command{
			installPiCommand(e),
			installClaudeCommand(e),
			installCodexCommand(e),
			installHerdrCommand(e),
			installTmuxCommand(e), installWezTermCommand(e), installKittyCommand(e),
		},
	}
}

// sayEdit says on w what a --write or --uninstall did to a host's config,
// with hint (what the user does next) after a change.
func sayEdit(w io.Writer, c *cli.Context, edit install.Edit, uninstall bool, hint string) {
	name := commandName(c)
	switch {
	case edit.Change == install.Added:
		fmt.Fprintf(w, "jig: %s: added to %s; %s\n", name, edit.File, hint)
	case edit.Change == install.Updated:
		fmt.Fprintf(w, "jig: %s: updated jig's lines in %s; %s\n", name, edit.File, hint)
	case edit.Change == install.Removed:
		fmt.Fprintf(w, "jig: %s: removed jig's lines from %s; %s\n", name, edit.File, hint)
	case uninstall:
		fmt.Fprintf(w, "jig: %s: %s has no jig lines\n", name, edit.File)
	default:
		fmt.Fprintf(w, "jig: %s: %s already has jig's lines\n", name, edit.File)
	}
	for _, f := range edit.Deleted {
		fmt.Fprintf(w, "jig: %s: removed %s\n", name, f)
	}
}

// sayFile prints one file a step wrote, found as wanted, or removed.
func sayFile(w io.Writer, f install.File) {
	switch f.Change {
	case install.Unchanged:
		fmt.Fprintf(w, "%s (up to date)\n", f.Path)
	case install.Removed:
		fmt.Fprintf(w, "removed %s\n", f.Path)
	default:
		fmt.Fprintln(w, f.Path)
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
		h := host(c)
		switch {
		case c.Bool("uninstall"):
			edit, err := h.Uninstall()
			if err != nil {
				return err
			}
			sayEdit(e.stderr, c, edit, true, words.uninstall(edit))
		case c.Bool("write"):
			edit, err := h.Write()
			if err != nil {
				return err
			}
			sayEdit(e.stderr, c, edit, false, words.wrote(edit))
		default:
			lines, err := h.Lines()
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, words.print(lines))
			return err
		}
		return nil
	}
}
