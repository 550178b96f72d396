package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"jig/cmdline"
	"jig/exit"
	"jig/render"
	"jig/request"
	"jig/status"
)

// defaultWait is how long a bare --wait waits for the answer; the session
// looks for requests every 2 s.
const defaultWait = 10 * time.Second

func requestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "request",
		Usage: "ask a live session to switch a tool or a skill, or to reload when idle",
		UsageText: "jig request COMMAND [options] [arguments]\n\n" +
			"example: jig request tool bash off --session 0190a --wait",
		Subcommands: []*cli.Command{
			requestSwitchCommand(e, "tool"),
			requestSwitchCommand(e, "skill"),
			requestReloadCommand(e),
			requestTakeCommand(e),
			requestHandleCommand(e),
			requestShowCommand(e),
		},
	}
}

// targetFlags name the session a request is for.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "session", Usage: "the session `ID`"},
		&cli.StringFlag{Name: "terminal", Usage: "the session running in terminal `ID` (default: this terminal)"},
	}
}

func sendFlags() []cli.Flag {
	return append(targetFlags(), &cmdline.OptionalFlag{GenericFlag: &cli.GenericFlag{
		Name:  "wait",
		Usage: "wait for the session's answer, print it, exit 0 when ok, 1 when not (--wait=DURATION, default 10s)",
		Value: &cmdline.OptionalDuration{Bare: defaultWait},
	}})
}

func requestSwitchCommand(e *env, kind string) *cli.Command {
	return &cli.Command{
		Name:  kind,
		Usage: "turn " + kind + "s on or off for one session",
		UsageText: fmt.Sprintf("jig request %[1]s NAME on|off [--session ID | --terminal ID] [--wait[=DURATION]]\n"+
			"jig request %[1]s NAME=on|off [NAME=on|off ...] [...]\n\nexample: jig request %[1]s bash off --wait", kind),
		Flags: sendFlags(),
		Action: sendAction(e, func(c *cli.Context) (*request.Request, error) {
			switches, err := request.ParseSwitches(c.Args().Slice())
			if err != nil {
				return nil, usageError(c, "%v", err)
			}
			req := request.New(e.Now())
			if kind == "tool" {
				req.Tools = switches
			} else {
				req.Skills = switches
			}
			return req, nil
		}),
	}
}

func requestReloadCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "reload",
		Usage: "ask a session to reload once it is idle",
		UsageText: "jig request reload [--session ID | --terminal ID] [--wait[=DURATION]]\n\n" +
			"example: jig request reload --terminal %3 --wait=30s",
		Flags: sendFlags(),
		Action: sendAction(e, func(c *cli.Context) (*request.Request, error) {
			if err := noArgs(c); err != nil {
				return nil, err
			}
			req := request.New(e.Now())
			req.Reload = true
			return req, nil
		}),
	}
}

// sendAction is the action of the commands that send a request: make
// it, write it for the target session and, with --wait, wait for the
// answer and print it; without --wait, print the request's id.
func sendAction(e *env, build func(c *cli.Context) (*request.Request, error)) cli.ActionFunc {
	return func(c *cli.Context) error {
		req, err := build(c)
		if err != nil {
			return err
		}
		dir, s, err := requestTarget(c, e)
		if err != nil {
			return err
		}
		if _, err := request.Send(dir, s.Session, req); err != nil {
			return err
		}
		wait := c.Generic("wait").(*cmdline.OptionalDuration)
		if !wait.Given {
			fmt.Fprintln(e.Stdout, req.ID)
			return nil
		}
		answer, err := request.Await(dir, s.Session, req.ID, e.Liveness(), wait.D)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.Stdout, render.Clean(strings.Join(strings.Fields(answer.Message), " ")))
		if !answer.OK {
			return exit.Silent(exit.None)
		}
		return nil
	}
}

// requestTarget is the live session a request is for: --session, else
// --terminal, else the session in this shell's innermost terminal.
func requestTarget(c *cli.Context, e *env) (*status.Dir, *status.Status, error) {
	session, term := c.String("session"), c.String("terminal")
	if session != "" && term != "" {
		return nil, nil, usageError(c, "give --session or --terminal, not both")
	}
	return e.resolve(status.Target{Session: session, Terminal: term, Live: true}, "--session or --terminal")
}

func requestTakeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "take",
		Usage: "take the request waiting for a session (session side, for hooks)",
		UsageText: "jig request take --session ID\n\n" +
			"Prints the request as JSON and removes it; exit 1 and no output when none waits.\n" +
			"A bad request is removed, answered ok:false in the status file, and named on stderr (exit 4).\n" +
			"The hook answers a good one: echo '{\"lastRequest\": {...}, \"switches\": {...}}' | jig session write --session ID\n\n" +
			"example: jig request take --session 0190a > request.json",
		Flags: []cli.Flag{&cli.StringFlag{Name: "session", Usage: "the session `ID` (required)"}},
		Action: func(c *cli.Context) error {
			session := c.String("session")
			if err := needSession(c, session); err != nil {
				return err
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			req, err := request.TakeAnswering(dir, session, e.Now())
			if err != nil {
				return err
			}
			return printRequest(e.Stdout, req)
		},
	}
}

// printRequest prints a request as JSON; none is exit 1, silently.
func printRequest(w io.Writer, req *request.Request) error {
	if req == nil {
		return exit.Silent(exit.None)
	}
	data, err := request.Encode(req)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func requestHandleCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "handle",
		Usage: "take, decide and answer the waiting request (session side, for hosts that are not Go)",
		UsageText: "jig request handle --session ID < available.json\n\n" +
			"stdin says what the session has: {\"tools\": [...], \"active\": [...], \"hidden\": [...], \"skills\": [...]}.\n" +
			"Takes the waiting request, decides it with the switches kept in the status file, writes lastRequest\n" +
			"and switches there, and prints what to apply: {\"switches\", \"active\", \"skillsOff\", \"reload\", \"lastRequest\"}.\n" +
			"Exit 1 and no output when none waits; a bad request is answered ok:false (exit 4).\n\n" +
			`example: echo '{"tools":["read","bash"],"active":["read","bash"],"hidden":[],"skills":[]}' | jig request handle --session 0190a`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "session", Usage: "the session `ID` (required)"}},
		Action: func(c *cli.Context) error {
			session := c.String("session")
			if err := needSession(c, session); err != nil {
				return err
			}
			have, err := request.ReadAvailable(e.Stdin)
			if err != nil {
				return fmt.Errorf("stdin: %w", err)
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			out, err := request.Decide(dir, session, have, e.Now())
			switch {
			case err != nil:
				return err
			case out == nil:
				return exit.Silent(exit.None)
			}
			data, err := json.Marshal(out)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "%s\n", data)
			return nil
		},
	}
}

func requestShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "print the request waiting for a session, as JSON, without taking it",
		UsageText: "jig request show [--session ID | --terminal ID]\n\nexit 1 and no output when none waits\n\n" +
			"example: jig request show --terminal %3",
		Flags: targetFlags(),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			dir, err := e.StateDir()
			if err != nil {
				return err
			}
			session := c.String("session")
			if session == "" || c.String("terminal") != "" {
				var s *status.Status
				if dir, s, err = requestTarget(c, e); err != nil {
					return err
				}
				session = s.Session
			}
			req, err := request.Pending(dir, session)
			if err != nil {
				return err
			}
			return printRequest(e.Stdout, req)
		},
	}
}
