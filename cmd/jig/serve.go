package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"jig/agents/peer"
	"jig/serve"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "every session, here and on other machines, in a browser: live, steerable, behind a token",
		UsageText: "jig serve [--addr 127.0.0.1:7420] [--read-only] [--host HOST ...]\n\nPrints the address to open, with its token. " +
			"Not loopback is plain HTTP: use ssh -L (docs/serve.md).\n\nexample: jig serve --read-only --host devbox",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "listen on `HOST:PORT`"},
			&cli.BoolFlag{Name: "read-only", Usage: "show only: refuse every request, focus and fork"},
		}, boardCommand(e).Flags[:2]...), // the board's --host and --host-timeout
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			b, err := e.board(c)
			if err != nil {
				return err
			}
			return serve.Run(context.Background(), c.String("addr"), e.Stdout, serve.Options{Board: b, ReadOnly: c.Bool("read-only"),
				Log: e.Stderr, Now: e.Now, Conversations: conversations(e)})
		},
	}
}

// conversations are the registered agents' transcript readers, by the
// status file's agent id.
func conversations(e *env) map[string]serve.Reader {
	m := map[string]serve.Reader{}
	for _, a := range peer.All() {
		if a.Conversation != nil {
			m[a.ID] = a.Conversation(e.Getenv, e.Now)
		}
	}
	return m
}
