package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"jig/notify"
	"jig/render"
	"jig/status"
)

func sessionWatchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "print a session's status now and at each change, until it ends",
		UsageText: "jig session watch [ID | --terminal ID] [--json | --jq EXPR | --format TEMPLATE]\n" +
			"jig session watch [ID | --terminal ID | --all] [--on attention,idle,busy,end] [--exec CMD] [--notify] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"Prints the status once, then a line each time what it prints changes: the file's\n" +
			"JSON on one line with --json, what --jq or --format make of it (ended with a\n" +
			"newline), else the one-line summary. Exits 0 when the\n" +
			"session ends (its file is removed or its process is gone) or on Ctrl-C; 5 when there\n" +
			"is no live session to watch. Without ID or --terminal, the session in this terminal.\n" +
			"Idle, it costs nothing: it waits on file events (inotify), or polls once a second\n" +
			"where those are not available.\n\n" +
			"With --all, --on, --exec or --notify it acts on transitions instead: a session began to\n" +
			"wait for you (attention), went idle, went busy, or ended; once each, never for a write\n" +
			"that changed none of them. --exec runs CMD (/bin/sh) with JIG_SESSION, JIG_TERMINAL,\n" +
			"JIG_AGENT, JIG_STATE, JIG_ATTENTION, JIG_TOOL and JIG_PROJECT in its environment;\n" +
			"--notify: notify-send with a desktop (D-Bus, X, Wayland); in tmux the session's pane's bell\n" +
			"(tmux keeps ! on its window) and a message up until a key; else the terminal's own (OSC 777\n" +
			"in urxvt and foot, else OSC 9). Without --exec and --notify it prints one line for each (the\n" +
			"status with --json, --jq or --format). --all watches every session until Ctrl-C.\n\n" +
			"example: jig session watch --terminal %3 --json | jq --unbuffered -r .state\n" +
			"example: jig session watch --all --on attention --notify",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "terminal", Usage: "watch the live session running in terminal `ID`"},
			&cli.BoolFlag{Name: "all", Usage: "watch every session, those that start later too"},
			&cli.StringFlag{Name: "on", Usage: "act on these transitions: `LIST` of attention, idle, busy, end (default all)"},
			&cli.StringFlag{Name: "exec", Usage: "run `CMD` (/bin/sh) at each transition, with JIG_* in its environment"},
			&cli.BoolFlag{Name: "notify", Usage: "say each transition through notify-send, tmux or the terminal"},
		}, docFlags("each status, on one line,")...),
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			if c.Bool("all") || c.IsSet("on") || c.IsSet("exec") || c.Bool("notify") {
				return e.watchTransitions(c, id)
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
			show := out.Changes(e.Stdout)
			return dir.Watch(ctx, s.Session, e.Liveness(), func(s *status.Status, _ []byte) error { return show(s) })
		},
	}
}

// watchTransitions is watch acting on transitions: --on, --exec, --notify,
// over one session or --all.
func (e *env) watchTransitions(c *cli.Context, id string) error {
	on, err := transitionsOn(c, id)
	if err != nil {
		return err
	}
	out, err := e.printer(c, render.Output{Lines: true})
	if err != nil {
		return err
	}
	w := &notify.Watcher{Live: e.Liveness(), On: on, Print: transitionPrint(c, out, e.Stdout),
		Warn: func(err error) { sayError(e.Stderr, c, err) }}
	if c.IsSet("exec") {
		w.Exec = &notify.Exec{Command: c.String("exec"), Environ: os.Environ(), Stdout: e.Stdout, Stderr: e.Stderr}
	}
	if c.Bool("notify") {
		n, closeTTY := notify.Open(e.Getenv, e.Stderr)
		defer closeTTY()
		w.Notify = n
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.Bool("all") {
		if w.Dir, err = e.StateDir(); err != nil {
			return err
		}
		return w.All(ctx)
	}
	dir, s, err := e.resolve(status.Target{Session: id, Terminal: c.String("terminal"), Live: true}, "a session ID, --terminal or --all")
	if errors.Is(err, status.ErrNoTerminal) {
		return usageError(c, "%v", err)
	}
	if err != nil {
		return err
	}
	w.Dir = dir
	return w.Session(ctx, s.Session)
}

// transitionsOn is the transitions --on names, once the flags that say
// what to watch agree.
func transitionsOn(c *cli.Context, id string) ([]string, error) {
	on, err := notify.ParseOn(c.String("on"))
	switch {
	case err != nil:
		return nil, usageError(c, "--on %v", err)
	case c.Bool("all") && (id != "" || c.IsSet("terminal")):
		return nil, usageError(c, "--all watches every session: no session ID or --terminal")
	case id != "" && c.IsSet("terminal"):
		return nil, usageError(c, "a session ID and --terminal cannot be combined")
	case c.IsSet("exec") && strings.TrimSpace(c.String("exec")) == "":
		return nil, usageError(c, "--exec: want a command")
	}
	return on, nil
}

// transitionPrint is what watch prints at a transition: the status as
// --json, --jq or --format make it, else the event's line unless --exec or
// --notify act on it instead (nil: nothing).
func transitionPrint(c *cli.Context, out *render.Printer, w io.Writer) func(notify.Event) error {
	switch {
	case c.Bool("json") || c.IsSet("jq") || c.IsSet("format"):
		return func(ev notify.Event) error { return out.Status(w, ev.Status) }
	case !c.IsSet("exec") && !c.Bool("notify"):
		return func(ev notify.Event) error { _, err := fmt.Fprintln(w, ev.Line()); return err }
	}
	return nil
}
