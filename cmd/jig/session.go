package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"jig/hook"
	"jig/hot/fast"
	pitranscript "jig/pi/transcript"
	"jig/status"
	"jig/writer"
)

func sessionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:            "session",
		Usage:           "write, find and read session status files",
		UsageText:       "jig session COMMAND [options] [arguments]\n\nexample: jig session list",
		HideHelpCommand: true,
		Subcommands: []*cli.Command{
			sessionWriteCommand(e),
			sessionForTerminalCommand(e),
			sessionListCommand(e),
			sessionShowCommand(e),
			sessionPathCommand(e),
			sessionGCCommand(e),
			sessionContextCommand(e),
			sessionWaitCommand(e),
			sessionWatchCommand(e),
		},
	}
}

func sessionWriteCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "write",
		Usage: "write a session's status file from what the agent says on stdin",
		UsageText: "jig session write --session ID [--pid N] [--transcript FILE] [--end] < fields.json\n\n" +
			`example: echo '{"state":"busy","model":{"provider":"anthropic","id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5"}}' | jig session write --session 0190a`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "the agent's session `ID` (required)"},
			&cli.IntFlag{Name: "pid", Usage: "the agent's process `N` (default: the parent process)"},
			&cli.BoolFlag{Name: "end", Usage: "the session is over: remove its file"},
			&cli.StringFlag{Name: "transcript", Usage: "derive model, usage, context, outputs and recent calls from Pi's session `FILE` (stdin still wins)"},
		},
		Action: func(c *cli.Context) error {
			id := c.String("session")
			var file string
			if c.String("transcript") != "" && !c.Bool("end") {
				var err error
				if file, id, err = pitranscript.Session(c.String("transcript"), id); err != nil {
					return err
				}
			}
			if err := needSession(c, id); err != nil {
				return err
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			host, _ := e.Hostname()
			w := writer.New(dir, e.Now, e.Getenv, host)
			if c.Bool("end") {
				return w.End(id)
			}
			return e.sessionWrite(c, w, id, file)
		},
	}
}

// sessionWrite writes session id from stdin, and from the Pi transcript
// file when one is given.
func (e *env) sessionWrite(c *cli.Context, w *writer.Writer, id, file string) error {
	live, err := e.readStdin(c)
	if err == nil {
		err = hook.Fits(live)
	}
	if err != nil {
		return err
	}
	pid := c.Int("pid")
	if pid < 0 {
		return usageError(c, "--pid %d: want a process id", pid)
	}
	if pid == 0 {
		pid = os.Getppid()
	}
	var problems []error
	u := writer.Update{Session: id, PID: pid, Agent: status.AgentPi, AgentDir: agentDir(e.Getenv), Live: live,
		KeepSaid: true, Ticket: &writer.Ticket{Warn: func(p error) { problems = append(problems, p) }}}
	if file != "" {
		u.Transcript = pitranscript.NewSource(file, e.Getenv("HOME"))
	}
	_, err = w.Write(u)
	for _, p := range problems { // after the lock is let go: stderr may block
		e.warnf(c, "warning: %v", p)
	}
	if refused := (*writer.Refused)(nil); errors.As(err, &refused) && !refused.Transcript {
		return fmt.Errorf("stdin: %w", err) // the fields the agent said
	}
	return err
}

// readStdin reads what the agent says to a command that takes no
// arguments, up to one byte more than a status file may hold (hook.Read;
// hook.Fits says whether it does). A terminal says nothing: run by hand,
// the command does not wait for typing.
func (e *env) readStdin(c *cli.Context) ([]byte, error) {
	if err := noArgs(c); err != nil {
		return nil, err
	}
	return fast.StdinData(e.Env)
}
