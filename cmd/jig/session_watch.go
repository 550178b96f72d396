package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

func sessionWatchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "print a session's status now and at each change, until it ends",
		UsageText: "jig session watch [ID | --terminal ID] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"Prints the status once, then a line each time what it prints changes: the file's\n" +
			"JSON on one line with --json, what --jq or --format make of it (ended with a\n" +
			"newline), else the one-line summary. Exits 0 when the\n" +
			"session ends (its file is removed or its process is gone) or on Ctrl-C; 5 when there\n" +
			"is no live session to watch. Without ID or --terminal, the session in this terminal.\n" +
			"Idle, it costs nothing: it waits on file events (inotify), or polls once a second\n" +
			"where those are not available.\n\n" +
			"example: jig session watch --terminal %3 --json | jq --unbuffered -r .state",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "terminal", Usage: "watch the live session running in terminal `ID`"},
		}, docFlags("each status, on one line,")...),
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			out, err := e.printer(c, render.Output{Summary: true, Lines: true})
			if err != nil {
				return err
			}
			if id != "" && c.String("terminal") != "" {
				return usageError(c, "a session ID and --terminal cannot be combined")
			}
			dir, s, err := e.resolve(status.Target{Session: id, Terminal: c.String("terminal"), Live: true}, "a session ID or --terminal")
			if errors.Is(err, status.ErrNoTerminal) {
				return usageError(c, "%v", err)
			}
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			var last []byte
			return dir.Watch(ctx, s.Session, e.liveness(), func(s *status.Status, _ []byte) error {
				// a line only when it changes: a write seldom changes what --jq picks
				var line bytes.Buffer
				if err := out.Status(&line, s); err != nil || bytes.Equal(line.Bytes(), last) {
					return err
				}
				last = line.Bytes()
				_, err := e.stdout.Write(last)
				return err
			})
		},
	}
}
