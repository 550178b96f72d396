package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

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
			"Prints the address to open, with its token (kept in the state dir). The board, each\n" +
			"session's status and conversation, live; tool and skill switches, reload, focus and Pi's\n" +
			"fork unless --read-only. An address that is not loopback is plain HTTP: prefer\n" +
			"`ssh -L 7420:127.0.0.1:7420 HOST` (docs/serve.md). Ctrl-C stops it.\n\n" +
			"example: jig serve\n" +
			"example: jig serve --read-only --host devbox",
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
			addr := c.String("addr")
			if err := serve.CheckAddr(addr); err != nil {
				return usageError(c, "--addr %s: %v", addr, err)
			}
			b, err := e.board(c)
			if err != nil {
				return err
			}
			token, err := serve.LoadToken(b.Dir)
			if err != nil {
				return err
			}
			ln, err := serve.Listen(addr)
			if err != nil {
				return err
			}
			srv, err := serve.New(serve.Options{Board: b, ReadOnly: c.Bool("read-only"), Token: token, Log: e.stderr,
				Now: e.now, Conversations: conversations(e)}, ln.Addr().String())
			if err != nil {
				return err
			}
			if !serve.Loopback(addr) {
				e.warnf(c, "warning: %s is not loopback: the page and its token travel as plain HTTP; see docs/serve.md for ssh -L", addr)
			}
			fmt.Fprintln(e.stdout, serve.URL(ln.Addr().String(), token))
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			return srv.Serve(ctx, ln)
		},
	}
}

// conversations is each agent's transcript reader, by its status files'
// agent id.
func conversations(e *env) map[string]conversation.Reader {
	return map[string]conversation.Reader{
		"pi":          pi.Conversation{Sessions: pi.NewSessions(e.getenv), Now: e.now},
		"claude-code": claude.Conversation{},
		"codex":       codex.Conversation{},
	}
}
