package pi

import (
	"fmt"
	"io"
	"strings"
	"time"

	"jig/pi/transcript"
	"jig/render"
)

// Pi's views of its own files for a person: jig pi sessions, show and
// tree. Paths, names and ids in them are Pi's or the user's: every one is
// cleaned (render.Clean).

// PrintSessions is the table of `jig pi sessions`.
func PrintSessions(w io.Writer, rows []Row) {
	tw := render.NewColumns(w)
	fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tNAME\tCWD\tPARENT\tCHILDREN\tFILE")
	for _, in := range rows {
		parent := in.ParentID // the parent's id when listed, else its file
		if parent == "" {
			parent = in.Parent
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", render.Clean(in.ID), render.Clean(in.Started),
			in.Modified.Format(time.RFC3339), render.Size(in.Size), render.Dash(render.Clean(in.Name)), render.Clean(in.CWD),
			render.Dash(render.Clean(parent)), render.Dash(render.Clean(strings.Join(in.Children, ","))), render.Clean(in.File))
	}
	tw.Flush()
}

// Print is what a Pi transcript says, as `jig pi show` prints it.
func (sh *Shown) Print(out io.Writer) {
	d := sh.Derived
	w := render.NewColumns(out)
	h := d.Header
	fmt.Fprintf(w, "session\t%s\n", render.Clean(h.ID))
	fmt.Fprintf(w, "file\t%s\n", render.Clean(d.File))
	fmt.Fprintf(w, "format\tv%d\n", h.Version)
	fmt.Fprintf(w, "started\t%s\n", render.Clean(h.Timestamp))
	fmt.Fprintf(w, "cwd\t%s\n", render.Clean(h.CWD))
	if d.Name != "" {
		fmt.Fprintf(w, "name\t%s\n", render.Clean(d.Name))
	}
	for i, s := range sh.Lineage {
		label := ""
		if i == 0 {
			label = "lineage"
		}
		if s.Missing {
			fmt.Fprintf(w, "%s\t← %s (missing)\n", label, render.Clean(s.File))
		} else {
			fmt.Fprintf(w, "%s\t← %s (%s)\n", label, render.Clean(s.ID), render.Clean(s.File))
		}
	}
	fmt.Fprintf(w, "model\t%s\n", render.Clean(render.ModelPath(d.Model)))
	fmt.Fprintf(w, "thinking\t%s\n", render.Clean(d.Thinking))
	render.ShowUsage(w, &d.Derived, "unknown (a call had no price)", "unknown until the next reply (compacted)")
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	render.ShowActivity(out, &d.Derived)
}

// PrintTree is every leaf of a Pi session, as `jig pi tree` prints it; t's
// prompts, labels and names are cleaned already.
func PrintTree(out io.Writer, t *transcript.Tree) {
	fmt.Fprintf(out, "session %s  %s  (%d entries, %d %s, active %s)\n", render.Clean(t.Header.ID),
		render.Clean(t.File), t.Entries, len(t.Leaves), render.Plural(len(t.Leaves), "leaf", "leaves"), render.Clean(t.Active))
	w := render.NewColumns(out)
	fmt.Fprintln(w, "  LEAF\tTIME\tENTRIES\tFROM\tTOKENS\tCOST\tPROMPT")
	for _, l := range t.Leaves {
		mark := " "
		if l.Active {
			mark = "*"
		}
		prompt := "-"
		if l.Prompt != "" {
			prompt = fmt.Sprintf("%q", l.Prompt)
		}
		u := l.Usage
		fmt.Fprintf(w, "%s %s\t%s\t%d\t%s\t%d\t%s\t%s%s\n", mark, render.Clean(l.ID), l.At.Format(time.RFC3339),
			l.Depth, render.Dash(render.Clean(l.From)), u.Input+u.Output+u.CacheRead+u.CacheWrite, render.Money(u.Cost), prompt, leafExtra(l))
	}
	w.Flush()
}

// leafExtra is what a leaf's line ends with: its label, name and the
// summaries on its branch.
func leafExtra(l transcript.Leaf) string {
	extra := ""
	if l.Label != "" {
		extra += fmt.Sprintf("  [%s on %s]", l.Label, render.Clean(l.LabelOn))
	}
	if l.Name != "" {
		extra += fmt.Sprintf("  (%s)", l.Name)
	}
	var sums []string
	for _, s := range l.Summaries {
		sums = append(sums, render.Clean(s.Type+" "+s.ID))
	}
	if len(sums) > 0 {
		extra += "  after " + strings.Join(sums, ", ")
	}
	return extra
}
