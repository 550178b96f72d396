package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"jig/status"
)

func sessionPathCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "path",
		Usage: "print the status file of a session id, or of the session in this terminal",
		UsageText: "jig session path [ID]\n\n" +
			"With ID, where that session's file is (or would be): the id made safe as a file name.\n" +
			"Without, the file of the live session in this terminal; outside any terminal jig\n" +
			"knows, of the one live session on this machine. Exit 1 when there is none (or,\n" +
			"outside a terminal, more than one).\n\n" +
			"example: cat \"$(jig session path)\"",
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			if id != "" {
				// The path is for reading: a folder jig refuses is no place to send a reader.
				dir, err := e.StateDir()
				if err == nil {
					err = dir.Check(status.SessionsDir)
				}
				if err != nil {
					return err
				}
				fmt.Fprintln(e.Stdout, dir.SessionPath(id))
				return nil
			}
			dir, s, err := e.resolve(status.Target{}, "a session ID")
			if err != nil {
				return err
			}
			fmt.Fprintln(e.Stdout, dir.SessionPath(s.Session))
			return nil
		},
	}
}
