package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

// sessionContextCommand draws what fills a session's context, as Pi's
// /context shows it: the Pi extension runs it, and the Context mod draws the
// same layout.
func sessionContextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "draw what fills a session's context: a grid, each part, the tools, skills and files",
		UsageText: "jig session context [ID]\n\nexample: jig session context 0190a7c2-5b1e-7c3d-9f00-4a1b2c3d4e5f",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageError(c, "takes at most one session id, got %d arguments", c.NArg())
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			var s *status.Status
			if id := c.Args().First(); id != "" {
				s, err = dir.Read(id)
				if errors.Is(err, fs.ErrNotExist) {
					return errorf(c, exitNoSession, "no session %q", id)
				}
			} else {
				s, err = sessionHere(e, dir)
				if err == nil && s == nil {
					return errorf(c, exitNoSession, "no session in this terminal (%s); give a session id", describeTerminals(e))
				}
			}
			if err != nil {
				if errors.Is(err, status.ErrUnsafeDir) {
					return errorf(c, exitStateDir, "%v", err)
				}
				return errorf(c, exitFailed, "%v", err)
			}
			fmt.Fprintln(e.stdout, strings.Join(render.ContextLines(s.ContextDetail), "\n"))
			return nil
		},
	}
}

// sessionHere is the live session running in this shell's terminal,
// innermost terminal first, or nil.
func sessionHere(e *env, dir *status.Dir) (*status.Status, error) {
	for _, t := range terminal.Detect(e.getenv) {
		s, err := dir.ForTerminal(t.ID, e.liveness())
		if err != nil || s != nil {
			return s, err
		}
	}
	return nil, nil
}

// describeTerminals names this shell's terminals for an error line.
func describeTerminals(e *env) string {
	var ids []string
	for _, t := range terminal.Detect(e.getenv) {
		ids = append(ids, t.From+"="+t.ID)
	}
	if len(ids) == 0 {
		return "no terminal id found"
	}
	return strings.Join(ids, ", ")
}
