package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
	"jig/transcript"
)

// piCommand groups what jig does with Pi itself; each subcommand lives
// beside the others in its own function.
func piCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "pi",
		Usage: "read Pi's sessions; run the bridge of jig's Pi extension",
		UsageText: "jig pi COMMAND [options] [arguments]\n\n" +
			"example: jig pi sessions --cwd .",
		Subcommands: []*cli.Command{
			piSessionsCommand(e),
			piShowCommand(e),
			piTreeCommand(e),
			piForkCommand(e),
			piBridgeCommand(e),
		},
	}
}

func piSessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list Pi's sessions, newest first, from their headers",
		UsageText: "jig pi sessions [--cwd DIR] [--json]\n\n" +
			"example: jig pi sessions --cwd . --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "only sessions started in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			infos, err := pi.NewSessions(e.getenv).List()
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			rows := pi.Rows(infos) // over all sessions: a parent may be in another cwd
			if rows, err = inCWD(c, rows, func(r pi.Row) string { return r.CWD }); err != nil {
				return err
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(rows, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
			} else if len(rows) > 0 {
				tw := render.NewColumns(e.stdout)
				fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tNAME\tCWD\tPARENT\tCHILDREN\tFILE")
				for _, in := range rows {
					parent := in.ParentID // the parent's id when listed, else its file
					if parent == "" {
						parent = in.Parent
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", render.Clean(in.ID), render.Clean(in.Started),
						in.Modified.Format(time.RFC3339), size(in.Size), dash(render.Clean(in.Name)), render.Clean(in.CWD),
						dash(render.Clean(parent)), dash(render.Clean(strings.Join(in.Children, ","))), render.Clean(in.File))
				}
				tw.Flush()
			}
			if len(rows) == 0 {
				return silent(exitNone)
			}
			return nil
		},
	}
}

// inCWD keeps the sessions started in --cwd's folder (all without it).
func inCWD[T any](c *cli.Context, list []T, cwd func(T) string) ([]T, error) {
	dir := c.String("cwd")
	if dir == "" {
		return list, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errorf(c, exitUsage, "--cwd: %v", err)
	}
	kept := list[:0]
	for _, in := range list {
		if filepath.Clean(cwd(in)) == abs {
			kept = append(kept, in)
		}
	}
	return kept, nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fK", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

func piShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show what a Pi session's transcript says: model, thinking, totals, outputs, recent calls",
		UsageText: "jig pi show FILE|ID [--leaf ENTRY] [--json]\n\n" +
			"With --leaf, what holds on the branch ending at ENTRY (jig pi tree lists the leaves):\n" +
			"its model, thinking, context, recent calls, and the usage and outputs of its entries.\n\n" +
			"example: jig pi show ~/.pi/agent/sessions/--home-me-src--/2026-04-15T14-06-36-868Z_c8920823.jsonl",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringFlag{Name: "leaf", Usage: "show the branch ending at entry `ENTRY`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "takes one FILE or session ID")
			}
			file, err := pi.NewSessions(e.getenv).Find(c.Args().First())
			if err != nil {
				return errorf(c, exitNone, "%v", err)
			}
			var d *transcript.Derived
			var r *transcript.Reader
			if leaf := c.String("leaf"); leaf != "" {
				var noEntry *transcript.ErrNoEntry
				d, r, err = transcript.DeriveBranch(file, leaf, e.getenv("HOME"), transcript.NewRepoFinder().Repo)
				switch {
				case errors.As(err, &noEntry):
					return errorf(c, exitNone, "%s: %v", file, err)
				case err != nil:
					return errorf(c, exitBadInput, "%v", err) // the reader names the file
				}
			} else {
				r = transcript.NewReader(file)
				r.Home = e.getenv("HOME")
				if err := r.UpdateSession(); err != nil {
					return errorf(c, exitBadInput, "%v", err)
				}
				d = r.Derive(transcript.NewRepoFinder().Repo)
			}
			lin := pi.Lineage(d.Header.ParentSession)
			bad := r.BadLines()
			for _, b := range bad {
				e.warnf(c, "warning: %s:%d: skipped: %s", file, b.Line, b.Reason)
			}
			if d.Skipped > len(bad) {
				e.warnf(c, "warning: %s: %d more lines skipped", file, d.Skipped-len(bad))
			}
			if tail := r.Unread(); tail > 0 {
				e.warnf(c, "warning: %s: last line has no newline yet (%d bytes), not read", file, tail)
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(struct {
					*transcript.Derived
					BadLines []transcript.BadLine `json:"badLines"`
					Lineage  []pi.LineageStep     `json:"lineage"`
				}{d, bad, lin}, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
				return nil
			}
			printShow(e, d, lin)
			return nil
		},
	}
}

// printShow prints what a transcript says for a person. Its paths, names and
// ids are chosen by the agent: every one is cleaned.
func printShow(e *env, d *transcript.Derived, lin []pi.LineageStep) {
	w := render.NewColumns(e.stdout)
	h := d.Header
	fmt.Fprintf(w, "session\t%s\n", render.Clean(h.ID))
	fmt.Fprintf(w, "file\t%s\n", render.Clean(d.File))
	fmt.Fprintf(w, "format\tv%d\n", h.Version)
	fmt.Fprintf(w, "started\t%s\n", render.Clean(h.Timestamp))
	fmt.Fprintf(w, "cwd\t%s\n", render.Clean(h.CWD))
	if d.Name != "" {
		fmt.Fprintf(w, "name\t%s\n", render.Clean(d.Name))
	}
	for i, s := range lin {
		label := ""
		if i == 0 {
			label = "lineage"
		}
		switch {
		case s.Missing:
			fmt.Fprintf(w, "%s\t← %s (missing)\n", label, render.Clean(s.File))
		default:
			fmt.Fprintf(w, "%s\t← %s (%s)\n", label, render.Clean(s.ID), render.Clean(s.File))
		}
	}
	model := "-"
	if d.Model != nil {
		model = d.Model.Provider + "/" + d.Model.ID
	}
	fmt.Fprintf(w, "model\t%s\n", render.Clean(model))
	fmt.Fprintf(w, "thinking\t%s\n", render.Clean(d.Thinking))
	printUsage(w, d, "unknown (a call had no price)", "unknown until the next reply (compacted)")
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	printOutputsAndCalls(e, d)
}

// printUsage prints a transcript's usage and context lines, saying why one
// is unknown as the agent's reader knows it.
func printUsage(w io.Writer, d *transcript.Derived, unknownCost, unknownContext string) {
	cost := unknownCost
	if d.Usage.Cost != nil {
		cost = fmt.Sprintf("$%.4f", *d.Usage.Cost)
	}
	fmt.Fprintf(w, "usage\tinput %d, output %d, cache read %d, cache write %d, cost %s\n",
		d.Usage.Input, d.Usage.Output, d.Usage.CacheRead, d.Usage.CacheWrite, cost)
	ctx := unknownContext
	if d.ContextTokens != nil {
		ctx = fmt.Sprintf("%d tokens", *d.ContextTokens)
	}
	fmt.Fprintf(w, "context\t%s\n", ctx)
}

// printOutputsAndCalls prints a transcript's outputs and recent calls, as
// jig pi show and jig claude show end.
func printOutputsAndCalls(e *env, d *transcript.Derived) {
	fmt.Fprintf(e.stdout, "\noutputs (%d)\n", len(d.Outputs))
	w := render.NewColumns(e.stdout)
	for _, o := range d.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", render.Clean(o.Action), o.At.Format(time.RFC3339), render.Clean(o.Path), render.Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(e.stdout, "\nrecent calls (%d, newest first)\n", len(d.Recent))
	w = render.NewColumns(e.stdout)
	for _, c := range d.Recent {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), render.Clean(c.Tool), render.Clean(dash(c.Action)), render.Clean(c.Outcome))
	}
	w.Flush()
}
