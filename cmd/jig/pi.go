package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

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

// piSessionsDir is where Pi keeps its sessions: $PI_CODING_AGENT_SESSION_DIR,
// else $PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions.
func (e *env) piSessionsDir() string {
	if d := e.getenv("PI_CODING_AGENT_SESSION_DIR"); d != "" {
		return e.expandHome(d)
	}
	if d := e.getenv("PI_CODING_AGENT_DIR"); d != "" {
		return filepath.Join(e.expandHome(d), "sessions")
	}
	return filepath.Join(e.getenv("HOME"), ".pi", "agent", "sessions")
}

func (e *env) expandHome(p string) string {
	if home := e.getenv("HOME"); home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// piSessions reads the header of every .jsonl directly in the sessions dir
// or one folder down (Pi's per-cwd folders), newest first.
func (e *env) piSessions() ([]*transcript.Info, error) {
	root := e.piSessionsDir()
	var files []string
	for _, pat := range []string{"*.jsonl", "*/*.jsonl"} {
		m, err := filepath.Glob(filepath.Join(globEscape(root), pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	infos := make([]*transcript.Info, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				infos[i], _ = transcript.ReadInfo(files[i]) // not a session: left out, as Pi does
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	out := infos[:0]
	for _, in := range infos {
		if in != nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Modified.Equal(out[j].Modified) {
			return out[i].Modified.After(out[j].Modified)
		}
		return out[i].Started > out[j].Started
	})
	e.writePiCache(out)
	return out, nil
}

func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(p)
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
			infos, err := e.piSessions()
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			rows := lineageRows(infos) // over all sessions: a parent may be in another cwd
			if dir := c.String("cwd"); dir != "" {
				abs, err := filepath.Abs(dir)
				if err != nil {
					return errorf(c, exitUsage, "--cwd: %v", err)
				}
				kept := rows[:0]
				for _, in := range rows {
					if filepath.Clean(in.CWD) == abs {
						kept = append(kept, in)
					}
				}
				rows = kept
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(rows, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
			} else if len(rows) > 0 {
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
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

// lineageStep is one ancestor named by a parentSession header.
type lineageStep struct {
	File    string `json:"file"`
	ID      string `json:"id,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// lineage follows parentSession from file to file, up to 50 steps.
func lineage(parent string) []lineageStep {
	var out []lineageStep
	seen := map[string]bool{}
	for parent != "" && !seen[parent] && len(out) < 50 {
		seen[parent] = true
		in, err := transcript.ReadInfo(parent)
		if err != nil {
			out = append(out, lineageStep{File: parent, Missing: true})
			break
		}
		out = append(out, lineageStep{File: parent, ID: in.ID})
		parent = in.Parent
	}
	return out
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
			file, err := e.findPiSession(c.Args().First())
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
			lin := lineage(d.Header.ParentSession)
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
					Lineage  []lineageStep        `json:"lineage"`
				}{d, bad, lin}, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
				return nil
			}
			printShow(e, d, lin)
			return nil
		},
	}
}

// findPiSession takes a file path, or a session id (or the start of one) to
// look up in Pi's sessions dir. Whatever is there by that name is the file,
// to be refused when it is no session (a folder, a fifo).
func (e *env) findPiSession(arg string) (string, error) {
	if _, err := os.Stat(arg); !errors.Is(err, fs.ErrNotExist) {
		return arg, nil
	}
	if file, ok := e.cachedPiSession(arg); ok {
		return file, nil
	}
	infos, err := e.piSessions()
	if err != nil {
		return "", err
	}
	var found []string
	for _, in := range infos {
		if in.ID == arg {
			return in.File, nil
		}
		if strings.HasPrefix(in.ID, arg) {
			found = append(found, in.File)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%s: no such file or session in %s", arg, e.piSessionsDir())
	}
	return "", fmt.Errorf("%s: %d sessions start with it; give more of the id", arg, len(found))
}

// printShow prints what a transcript says for a person. Its paths, names and
// ids are chosen by the agent: every one is cleaned.
func printShow(e *env, d *transcript.Derived, lin []lineageStep) {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
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
	cost := "unknown (a call had no price)"
	if d.Usage.Cost != nil {
		cost = fmt.Sprintf("$%.4f", *d.Usage.Cost)
	}
	fmt.Fprintf(w, "usage\tinput %d, output %d, cache read %d, cache write %d, cost %s\n",
		d.Usage.Input, d.Usage.Output, d.Usage.CacheRead, d.Usage.CacheWrite, cost)
	ctx := "unknown until the next reply (compacted)"
	if d.ContextTokens != nil {
		ctx = fmt.Sprintf("%d tokens", *d.ContextTokens)
	}
	fmt.Fprintf(w, "context\t%s\n", ctx)
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	fmt.Fprintf(e.stdout, "\noutputs (%d)\n", len(d.Outputs))
	w = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, o := range d.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", render.Clean(o.Action), o.At.Format(time.RFC3339), render.Clean(o.Path), render.Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(e.stdout, "\nrecent calls (%d, newest first)\n", len(d.Recent))
	w = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, c := range d.Recent {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), render.Clean(c.Tool), render.Clean(dash(c.Action)), render.Clean(c.Outcome))
	}
	w.Flush()
}
