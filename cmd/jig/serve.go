package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"jig/board"
	"jig/claude"
	"jig/codex"
	"jig/pi"
	"jig/serve"
	"jig/serve/conversation"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "every session, here and on other machines, in a browser: live, steerable, behind a token",
		UsageText: "jig serve [--addr 127.0.0.1:7420] [--read-only] [--host HOST ...]\n\n" +
			"Prints the address to open, with its token. Not loopback is plain HTTP: use ssh -L (docs/serve.md).\n\nexample: jig serve --read-only --host devbox",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "listen on `HOST:PORT`"},
			&cli.BoolFlag{Name: "read-only", Usage: "show only: refuse every request, focus and fork"},
			&cli.StringSliceFlag{Name: "host", Usage: "ask `HOST` over ssh too (again for more; default: board.hosts in jig's configuration)"},
			&cli.DurationFlag{Name: "host-timeout", Value: board.HostTimeout, Usage: "how long a host may take to answer before it shows as down"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if err := serve.CheckAddr(c.String("addr")); err != nil {
				return usageError(c, "--addr %s: %v", c.String("addr"), err)
			}
			b, err := e.board(c)
			if err != nil {
				return err
			}
			return serve.Run(context.Background(), c.String("addr"), e.stdout, serve.Options{Board: b, ReadOnly: c.Bool("read-only"),
				Log: e.stderr, Now: e.now, Conversations: map[string]conversation.Reader{
					"pi": pi.Conversation{Sessions: pi.NewSessions(e.getenv), Now: e.now}, "claude-code": claude.Conversation{}, "codex": codex.Conversation{}}})
		},
	}
}
