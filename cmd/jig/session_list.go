package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"time"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

func sessionListCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the live sessions on this machine, newest first",
		UsageText: "jig session list [--all] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"A table on a terminal, else (or with --json) a JSON array of the status files;\n" +
			"--jq and --format read that array. Files that cannot be read are skipped with a\n" +
			"warning on stderr.\n\n" +
			"example: jig session list --all\n" +
			"example: jig session list --jq '.[] | select(.state == \"busy\") | .session'",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "list sessions that have ended too (their files wait for gc)"},
		}, docFlags("the array of status files")...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			doc, err := e.docOutputFor(c)
			if err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			live := e.liveness().Memo()
			var heads []listed // what the order needs, whatever each file holds
			err = dir.EachHead(true, func(h *status.Head, err error) error {
				if err != nil {
					e.warnf(c, "skipped %v", err)
				} else if c.Bool("all") || live.Alive(h.Status()) {
					heads = append(heads, listed{h.Name, h.UpdatedAt})
				}
				return nil
			})
			if err != nil {
				return errorf(c, exitStateDir, "%v", err)
			}
			sort.Slice(heads, func(i, j int) bool {
				if a, b := heads[i].updated, heads[j].updated; !a.Equal(b) {
					return a.After(b)
				}
				return heads[i].name < heads[j].name // the folder's order is no order
			})
			if doc != nil {
				var array bytes.Buffer
				if err := e.writeJSONList(c, &array, dir, heads); err != nil {
					return errorf(c, exitFailed, "%v", err)
				}
				return doc(e.stdout, array.Bytes())
			}
			if e.wantsJSON(c) {
				return e.writeJSONList(c, e.stdout, dir, heads)
			}
			var list []*status.Status
			for _, h := range heads {
				data, err := dir.ReadRaw(h.name, nil)
				if err != nil {
					continue // ended since the listing
				}
				s, err := status.Decode(data)
				if err != nil {
					continue
				}
				s.Outputs, s.Recent, s.ContextDetail = nil, nil, nil // the table shows none of them
				list = append(list, s)
			}
			render.Table(e.stdout, list, live.Alive, e.now(), e.columns())
			return nil
		},
	}
}

// listed is one session of a listing: its file's name and when it changed.
type listed struct {
	name    string
	updated time.Time
}

// writeJSONList prints the files as one JSON array, each as written, one
// at a time: its bytes are passed through, never decoded whole.
func (e *env) writeJSONList(c *cli.Context, out io.Writer, dir *status.Dir, heads []listed) error {
	w := bufio.NewWriterSize(out, 64<<10)
	w.WriteString("[")
	n := 0
	var buf []byte // one file's bytes at a time, the buffer reused
	for _, h := range heads {
		data, err := dir.ReadRaw(h.name, buf)
		buf = data
		if errors.Is(err, fs.ErrNotExist) {
			continue // ended since the listing
		}
		if err != nil {
			e.warnf(c, "skipped %v", err)
			continue
		}
		if n > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n")
		w.Write(bytes.TrimRight(data, "\n"))
		n++
	}
	if n > 0 {
		w.WriteString("\n")
	}
	w.WriteString("]\n")
	return w.Flush()
}

func sessionShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "print a session's status, by id or the one running in this terminal",
		UsageText: "jig session show [ID] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"Without ID, the live session in the terminal this shell runs in (see jig terminal).\n" +
			"Output as for for-terminal. Exit 1 when there is no such session.\n\n" +
			"example: jig session show 0190a --format '{{.state}} {{percent .context.percent}}'",
		Flags: docFlags("the status file"),
		Action: func(c *cli.Context) error {
			if _, err := sessionArg(c); err != nil {
				return err
			}
			out, err := e.outputFor(c)
			if err != nil {
				return err
			}
			s, err := e.findSession(c)
			if err != nil {
				return err
			}
			return out(s)
		},
	}
}

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
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			if id != "" {
				// The path is for reading: a folder jig refuses is no place to send a reader.
				if err := dir.Check(status.SessionsDir); err != nil {
					return errorf(c, exitStateDir, "%v", err)
				}
				fmt.Fprintln(e.stdout, dir.SessionPath(id))
				return nil
			}
			s, err := e.findSession(c)
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, dir.SessionPath(s.Session))
			return nil
		},
	}
}

// sessionArg is the optional session ID argument of show, path and
// context: "" when none is given.
func sessionArg(c *cli.Context) (string, error) {
	switch {
	case c.NArg() > 1:
		return "", usageError(c, "want at most one session ID, got %d arguments", c.NArg())
	case c.NArg() == 1 && c.Args().First() == "":
		return "", usageError(c, "empty session ID")
	}
	return c.Args().First(), nil
}

// findSession is the session a command names: its ID argument (alive or
// not: the file is there), else the live session in this shell's terminal,
// trying the innermost terminal first.
func (e *env) findSession(c *cli.Context) (*status.Status, error) {
	id, err := sessionArg(c)
	if err != nil {
		return nil, err
	}
	dir, err := e.stateDir()
	if err != nil {
		return nil, err
	}
	if err := dir.Check(status.SessionsDir); err != nil {
		return nil, errorf(c, exitStateDir, "%v", err)
	}
	if id != "" {
		s, err := dir.Read(id)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, errorf(c, exitNone, "no session %q", id)
		case err != nil:
			return nil, errorf(c, stateErrorCode(err, exitBadInput), "%v", err)
		}
		return s, nil
	}
	ids := terminal.Detect(e.getenv)
	if len(ids) == 0 {
		return e.onlyLiveSession(c, dir)
	}
	for _, t := range ids {
		s, err := dir.ForTerminal(t.ID, e.liveness())
		if err != nil {
			return nil, errorf(c, exitStateDir, "%v", err)
		}
		if s != nil {
			return s, nil
		}
	}
	return nil, errorf(c, exitNone, "no live session in terminal %s", ids[0].ID)
}

// onlyLiveSession is the session a command means outside any terminal jig
// knows (a plain shell, a script): the one live session on this machine,
// when there is exactly one.
func (e *env) onlyLiveSession(c *cli.Context, dir *status.Dir) (*status.Status, error) {
	live := e.liveness().Memo()
	var found []string
	err := dir.EachHead(false, func(h *status.Head, err error) error {
		if err == nil && live.Alive(h.Status()) {
			found = append(found, h.Session)
		}
		return nil
	})
	if err != nil {
		return nil, errorf(c, exitStateDir, "%v", err)
	}
	switch len(found) {
	case 1:
		s, err := dir.Read(found[0])
		if err != nil {
			return nil, errorf(c, exitNone, "the one live session has ended meanwhile: %v", err)
		}
		return s, nil
	case 0:
		return nil, errorf(c, exitNone, "no terminal id in the environment (see jig terminal) and no live session")
	}
	return nil, errorf(c, exitNone, "no terminal id in the environment (see jig terminal) and %d live sessions: name one (jig session list)", len(found))
}

func sessionGCCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gc",
		Usage: "remove the status files of sessions that have ended, stale index entries and their leftovers",
		UsageText: "jig session gc\n\n" +
			"Removes the files of this machine's sessions whose process is gone (or whose pid\n" +
			"another process took), then what ended sessions leave behind: transcript cursors and\n" +
			"waiting requests of sessions that have no status file (untouched for 10 minutes, so a\n" +
			"session starting or resuming keeps them) and claims a dying taker left. Files it cannot\n" +
			"read stay, with a warning. Temp files of writes cut short (a writer killed mid-write)\n" +
			"go once 10 minutes old.\n\n" +
			"example: jig session gc",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			// A state dir that cannot be read is exit 3, as for list; what
			// fails after is gc's own I/O.
			if err := dir.Check(status.SessionsDir, status.TerminalsDir, status.RequestsDir); err != nil {
				return errorf(c, exitStateDir, "%v", err)
			}
			cleaned, err := dir.GC(e.liveness(), e.now())
			if err != nil {
				return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
			}
			for _, en := range cleaned.Skipped {
				e.warnf(c, "skipped %v", en.Err)
			}
			fmt.Fprintf(e.stdout, "removed %d ended %s, %d stale index %s",
				len(cleaned.Sessions), plural(len(cleaned.Sessions), "session", "sessions"),
				cleaned.Markers, plural(cleaned.Markers, "entry", "entries"))
			for _, n := range []struct {
				n         int
				one, many string
			}{
				{cleaned.Temps, "unfinished write", "unfinished writes"},
				{cleaned.Leftovers, "leftover of ended sessions", "leftovers of ended sessions"},
				{cleaned.Links, "planted link", "planted links"},
			} {
				if n.n > 0 {
					fmt.Fprintf(e.stdout, ", %d %s", n.n, plural(n.n, n.one, n.many))
				}
			}
			fmt.Fprintln(e.stdout)
			return nil
		},
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
