package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

func sessionForTerminalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "for-terminal",
		Usage: "print the live session running in a terminal (exit 1 when none)",
		UsageText: "jig session for-terminal ID [--json | --format TEMPLATE | --preset HOST] [--max-width N]\n\n" +
			"Prints the status file (JSON) of the live session whose terminals contain ID;\n" +
			"a short summary instead when stdout is a terminal. Exit 0 found, 1 none\n" +
			"(nothing printed), 2 usage, 3 state dir unreadable or unsafe.\n\n" +
			"example: jig session for-terminal %3 --format '{{.State}} {{short .Model}} {{percent .Context.Percent}}'\n" +
			"example (tmux.conf): set -g status-right '#(jig session for-terminal \"#{pane_id}\" --preset tmux --max-width 40)'",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the status file's JSON even on a terminal"},
			&cli.StringFlag{Name: "format", Usage: "render a Go text/template `TEMPLATE` over the status (helpers: percent, money, since, short, glyph, level, trunc, tmux, clean, width)"},
		}, presetFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || c.Args().First() == "" {
				return usageError(c, "want one terminal ID, got %d arguments", c.NArg())
			}
			out, err := e.lineOutputFor(c)
			if err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			id := c.Args().First()
			if e.wantsJSON(c) {
				// The hot path of status bars: the file as it is, decoded no
				// further than needed to pick it.
				data, err := dir.ForTerminalRaw(id, e.liveness())
				if err != nil {
					return errorf(c, exitStateDir, "%v", err)
				}
				if data == nil {
					return silent(exitNone)
				}
				return writeDoc(e.stdout, data)
			}
			s, err := dir.ForTerminal(id, e.liveness())
			if err != nil {
				return errorf(c, exitStateDir, "%v", err)
			}
			if s == nil {
				return silent(exitNone)
			}
			return out(s)
		},
	}
}

// outputFor picks how a command that prints one session prints it, from its
// --json and --format flags and whether stdout is a terminal. A template is
// parsed here, before any search, so a bad one is a usage error even when no
// session is found. Nothing reaches stdout unless it rendered whole.
func (e *env) outputFor(c *cli.Context) (func(*status.Status) error, error) {
	format := c.String("format")
	if c.IsSet("format") && c.Bool("json") {
		return nil, usageError(c, "--json and --format exclude each other")
	}
	now := e.now()
	switch {
	case c.IsSet("format"):
		t, err := render.Parse(format)
		if err != nil {
			return nil, usageError(c, "--format: %v", err)
		}
		return func(s *status.Status) error {
			if err := render.Execute(e.stdout, t, s, now); err != nil {
				return errorf(c, exitFailed, "--format: %v", err)
			}
			return nil
		}, nil
	case e.wantsJSON(c):
		return func(s *status.Status) error { return writeJSON(e.stdout, s) }, nil
	default:
		return func(s *status.Status) error {
			render.Summary(e.stdout, s, now)
			return nil
		}, nil
	}
}

// wantsJSON: --json, or stdout is not a terminal and neither --format nor
// --preset is given.
func (e *env) wantsJSON(c *cli.Context) bool {
	return !c.IsSet("format") && !c.IsSet("preset") && (c.Bool("json") || !e.stdoutTTY)
}

// writeJSON prints a status as its file holds it, unknown fields included.
func writeJSON(w io.Writer, s *status.Status) error {
	data := s.Raw()
	if data == nil {
		var err error
		if data, err = status.Encode(s); err != nil {
			return err
		}
	}
	return writeDoc(w, data)
}

// writeDoc prints a document and ends it with a newline if it has none.
func writeDoc(w io.Writer, data []byte) error {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	_, err := w.Write(data)
	return err
}
