package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

// How watch notices what no file event says. A session that dies without
// removing its file writes nothing, so its process is checked now and then;
// without inotify (fsnotify failed) the file's stat is compared instead.
var (
	watchLiveCheck = 2 * time.Second
	watchPoll      = time.Second
	newWatcher     = fsnotify.NewWatcher
)

func sessionWatchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "print a session's status now and at each change, until it ends",
		UsageText: "jig session watch [ID | --terminal ID] [--json | --jq EXPR | --format TEMPLATE]\n\n" +
			"Prints the status once, then one line at each change of the session's status file:\n" +
			"the file's JSON on one line with --json, what --jq or --format make of it (ended\n" +
			"with a newline), else the one-line summary. Exits 0 when the\n" +
			"session ends (its file is removed or its process is gone) or on Ctrl-C; 5 when there\n" +
			"is no live session to watch. Without ID or --terminal, the session in this terminal.\n" +
			"Idle, it costs nothing: it waits on file events (inotify), or polls once a second\n" +
			"where those are not available.\n\n" +
			"example: jig session watch --terminal %3 --json | jq --unbuffered -r .state",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "terminal", Usage: "watch the live session running in terminal `ID`"},
		}, docFlags("each status, on one line,")...),
		Action: func(c *cli.Context) error {
			id, err := sessionArg(c)
			if err != nil {
				return err
			}
			doc, err := e.docOutputFor(c)
			if err != nil {
				return err
			}
			term := c.String("terminal")
			if id != "" && term != "" {
				return usageError(c, "a session ID and --terminal cannot be combined")
			}
			if id == "" && term == "" {
				t := terminal.Innermost(terminal.Detect(e.getenv))
				if t == nil {
					return usageError(c, "not in a known terminal: give a session ID or --terminal")
				}
				term = t.ID
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			var s *status.Status
			what := "session " + id
			if term != "" {
				what = "terminal " + term
				s, err = dir.ForTerminal(term, e.liveness())
			} else {
				s, err = liveSession(dir, id, e.liveness())
			}
			switch {
			case err != nil:
				return errorf(c, stateErrorCode(err, exitStateDir), "%v", err)
			case s == nil:
				return errorf(c, exitNoSession, "no live session for %s", render.Clean(what))
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			print := func(s *status.Status, data []byte) error { return e.printChange(c, doc, s, data) }
			if err := e.watch(ctx, dir, s.Session, print); err != nil {
				if errors.As(err, new(*exitError)) {
					return err // --jq or --format said it
				}
				return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
			}
			return nil
		},
	}
}

// printChange prints one status of watch: a line of JSON, what --jq or
// --format make of it, or the summary.
func (e *env) printChange(c *cli.Context, doc docOutput, s *status.Status, data []byte) error {
	var line bytes.Buffer
	switch {
	case doc != nil:
		if err := doc(&line, data); err != nil {
			return err
		}
		if line.Len() > 0 && !bytes.HasSuffix(line.Bytes(), []byte("\n")) {
			line.WriteByte('\n')
		}
	case c.Bool("json"):
		if err := json.Compact(&line, data); err != nil {
			return err
		}
		line.WriteByte('\n')
	default:
		render.Summary(&line, s, e.now())
	}
	_, err := e.stdout.Write(line.Bytes())
	return err
}

// watch prints the session's status, then again at each change, until the
// file goes, its process ends or ctx is done.
func (e *env) watch(ctx context.Context, dir *status.Dir, id string, print func(*status.Status, []byte) error) error {
	path := dir.SessionPath(id)
	changed := make(chan struct{}, 1) // one pending change is all a reread needs
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	w, err := newWatcher()
	if err == nil {
		defer w.Close()
		// the folder, not the file: a write replaces the file by rename
		err = w.Add(filepath.Dir(path))
	}
	var pollC <-chan time.Time
	if err != nil {
		t := time.NewTicker(watchPoll)
		defer t.Stop()
		pollC = t.C
	} else {
		go func() {
			for {
				select {
				case ev, ok := <-w.Events:
					if !ok {
						return
					}
					if ev.Name == path {
						poke()
					}
				case _, ok := <-w.Errors:
					if !ok {
						return
					}
					poke() // events were lost (an overflow): read again
				}
			}
		}()
	}
	live := time.NewTicker(watchLiveCheck)
	defer live.Stop()

	var last []byte
	var cur *status.Status
	var seen fs.FileInfo
	show := func() (ended bool, err error) {
		data, err := status.ReadFileNoFollow(path)
		if errors.Is(err, fs.ErrNotExist) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if bytes.Equal(data, last) {
			return false, nil
		}
		s, err := status.Decode(data)
		if err != nil {
			return false, nil // not a whole status (a foreign write): wait for the next
		}
		last, cur = data, s
		return false, print(s, data)
	}
	if ended, err := show(); ended || err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		case <-pollC:
			fi, err := os.Lstat(path)
			if err == nil && seen != nil && os.SameFile(fi, seen) && fi.ModTime().Equal(seen.ModTime()) && fi.Size() == seen.Size() {
				continue // unchanged: nothing to read
			}
			seen = fi
		case <-live.C:
			if !e.liveness().Alive(cur) {
				return nil
			}
			continue
		}
		if ended, err := show(); ended || err != nil {
			return err
		}
	}
}
