package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
	"jig/transcript"
)

// sessionRow is one transcript as `jig claude sessions` and `jig codex
// sessions` list it, from its head (claude/transcript's and codex/rollout's
// Info have this shape).
type sessionRow struct {
	ID       string    `json:"id"`
	Started  string    `json:"started"`
	Modified time.Time `json:"modified"`
	Size     int64     `json:"size"`
	CWD      string    `json:"cwd"`
	File     string    `json:"file"`
}

// listSessions is a sessions command's action: the agent's transcripts
// (newest first), those started in --cwd, as JSON or a table; exit 1 when
// there is none.
func listSessions[T any](e *env, c *cli.Context, list func() ([]T, error), row func(T) sessionRow) error {
	if err := noArgs(c); err != nil {
		return err
	}
	infos, err := list()
	if err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	rows := []sessionRow{}
	for _, in := range infos {
		rows = append(rows, row(in))
	}
	if rows, err = inCWD(c, rows, func(r sessionRow) string { return r.CWD }); err != nil {
		return err
	}
	if c.Bool("json") {
		data, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
	} else if len(rows) > 0 {
		tw := render.NewColumns(e.stdout)
		fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tCWD\tFILE")
		for _, in := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", render.Clean(in.ID), render.Clean(dash(in.Started)),
				in.Modified.Format(time.RFC3339), size(in.Size), render.Clean(dash(in.CWD)), render.Clean(in.File))
		}
		tw.Flush()
	}
	if len(rows) == 0 {
		return silent(exitNone)
	}
	return nil
}

// findSession takes a transcript's path, or a session id (or its start)
// among the agent's transcripts under folder.
func findSession[T any](arg, folder string, list func() ([]T, error), row func(T) sessionRow) (string, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		return arg, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	infos, err := list()
	if err != nil {
		return "", err
	}
	return pi.MatchID(arg, folder, infos, func(in T) (string, string) { r := row(in); return r.ID, r.File })
}

// printShowHead is the first lines `jig claude show` and `jig codex show`
// print for a transcript: the session, its file and start, its folder,
// model and effort; every value from the file goes through render.Clean.
func printShowHead(w io.Writer, d *transcript.Derived) {
	cl := render.Clean
	fmt.Fprintf(w, "session\t%s\n", cl(d.Header.ID))
	fmt.Fprintf(w, "file\t%s\n", cl(d.File))
	fmt.Fprintf(w, "started\t%s\n", cl(dash(d.Header.Timestamp)))
	fmt.Fprintf(w, "cwd\t%s\n", cl(dash(d.Header.CWD)))
	model := "-"
	if d.Model != nil {
		model = d.Model.Provider + "/" + d.Model.ID
	}
	fmt.Fprintf(w, "model\t%s\n", cl(model))
	fmt.Fprintf(w, "effort\t%s\n", cl(dash(d.Thinking)))
}
