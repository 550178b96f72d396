package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"jig/board"
	"jig/render"
	"jig/ticket"
)

func boardCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "board",
		Usage: "every live agent session, here and on other machines, attention first: jump to one, steer it",
		UsageText: "jig board [--host HOST ...] [--once | --json | --jq EXPR] [--jump ID]\n\n" +
			"On a terminal a full-screen view that redraws when a session's file changes:\n" +
			"↑/↓ or j/k move, Enter jumps to the session's pane, t turns one of its tools off\n" +
			"or on, r asks it to reload when idle, q quits. --once prints the rows and exits;\n" +
			"--json (and --jq) print them as JSON. Other machines are asked over\n" +
			"${JIG_SSH:-ssh} with `jig session list --json`; a host slower than 2 s shows as such.\n\n" +
			"example: jig board --host devbox --once\n" +
			"example: jig board --jump 01a228e5",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "host", Usage: "ask `HOST` over ssh too (again for more; default: board.hosts in jig's configuration)"},
			&cli.BoolFlag{Name: "once", Usage: "print the rows once and exit"},
			&cli.StringFlag{Name: "jump", Usage: "focus the pane of session `ID` (or the start of it) and exit"},
		}, docFlags("the rows")[:2]...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			doc, err := e.docOutputFor(c)
			if err != nil {
				return err
			}
			b, err := e.board(c)
			if err != nil {
				return err
			}
			if id := c.String("jump"); c.IsSet("jump") {
				return e.boardJump(c, b, id)
			}
			rows, err := b.Gather(context.Background())
			if err != nil {
				return errorf(c, exitStateDir, "%v", err)
			}
			if doc != nil || c.Bool("json") || (!c.Bool("once") && !e.stdoutTTY) {
				return e.printRows(c, doc, rows)
			}
			for _, line := range board.Lines(rows, e.columns(), e.now()) {
				fmt.Fprintln(e.stdout, line)
			}
			return nil
		},
	}
}

// board is the board the flags and the configuration describe.
func (e *env) board(c *cli.Context) (*board.Board, error) {
	dir, err := e.stateDir()
	if err != nil {
		return nil, err
	}
	host, _ := e.hostname()
	hosts := c.StringSlice("host")
	if len(hosts) == 0 {
		cwd, _ := os.Getwd()
		hosts = ticket.LoadConfig(e.getenv, cwd, e.agentDir()).BoardHosts
	}
	return &board.Board{Dir: dir, Live: e.liveness(), Host: host, Hosts: hosts,
		SSH: board.SSH{Command: e.getenv("JIG_SSH")}}, nil
}

// printRows prints the rows as a JSON array, or what --jq makes of it.
func (e *env) printRows(c *cli.Context, doc docOutput, rows []board.Row) error {
	if rows == nil {
		rows = []board.Row{}
	}
	data, err := json.Marshal(rows)
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	if doc != nil {
		return doc(e.stdout, data)
	}
	return writeDoc(e.stdout, data)
}

// boardJump focuses the pane of the one session id names.
func (e *env) boardJump(c *cli.Context, b *board.Board, id string) error {
	if id == "" {
		return usageError(c, "--jump: the session ID is empty")
	}
	rows, err := b.Gather(context.Background())
	if err != nil {
		return errorf(c, exitStateDir, "%v", err)
	}
	r, err := board.Find(rows, id)
	if err != nil {
		return errorf(c, exitNoSession, "--jump: %v", err)
	}
	if err := b.SSH.Jump(context.Background(), r); err != nil {
		code := exitFailed
		if errors.Is(err, board.ErrCannotJump) {
			code = exitNone
		}
		return errorf(c, code, "--jump %s: %v", render.Clean(id), err)
	}
	return nil
}
