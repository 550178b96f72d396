package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"jig/pi"
	pitranscript "jig/pi/transcript"
	"jig/status"
	"jig/transcript"
)

// The views of the agents' own files for a person (jig pi sessions, show
// and tree, jig claude sessions and show) and of what gc did. Paths, names
// and ids in them are chosen by the agent: every one is cleaned.

// PiSessions is the table of `jig pi sessions`.
func PiSessions(w io.Writer, rows []pi.Row) {
	tw := NewColumns(w)
	fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tNAME\tCWD\tPARENT\tCHILDREN\tFILE")
	for _, in := range rows {
		parent := in.ParentID // the parent's id when listed, else its file
		if parent == "" {
			parent = in.Parent
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", Clean(in.ID), Clean(in.Started),
			in.Modified.Format(time.RFC3339), size(in.Size), dash(Clean(in.Name)), Clean(in.CWD),
			dash(Clean(parent)), dash(Clean(strings.Join(in.Children, ","))), Clean(in.File))
	}
	tw.Flush()
}

// AgentSessions is the table of `jig claude sessions` and `jig codex
// sessions`.
func AgentSessions(w io.Writer, infos []*transcript.Listed) {
	tw := NewColumns(w)
	fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tCWD\tFILE")
	for _, in := range infos {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", Clean(in.ID), Clean(dash(in.Started)),
			in.Modified.Format(time.RFC3339), size(in.Size), Clean(dash(in.CWD)), Clean(in.File))
	}
	tw.Flush()
}

// PiShow is what a Pi transcript says, as `jig pi show` prints it.
func PiShow(out io.Writer, d *pitranscript.Derived, lineage []pi.LineageStep) {
	w := NewColumns(out)
	h := d.Header
	fmt.Fprintf(w, "session\t%s\n", Clean(h.ID))
	fmt.Fprintf(w, "file\t%s\n", Clean(d.File))
	fmt.Fprintf(w, "format\tv%d\n", h.Version)
	fmt.Fprintf(w, "started\t%s\n", Clean(h.Timestamp))
	fmt.Fprintf(w, "cwd\t%s\n", Clean(h.CWD))
	if d.Name != "" {
		fmt.Fprintf(w, "name\t%s\n", Clean(d.Name))
	}
	for i, s := range lineage {
		label := ""
		if i == 0 {
			label = "lineage"
		}
		if s.Missing {
			fmt.Fprintf(w, "%s\t← %s (missing)\n", label, Clean(s.File))
		} else {
			fmt.Fprintf(w, "%s\t← %s (%s)\n", label, Clean(s.ID), Clean(s.File))
		}
	}
	fmt.Fprintf(w, "model\t%s\n", Clean(modelPath(d.Model)))
	fmt.Fprintf(w, "thinking\t%s\n", Clean(d.Thinking))
	usage(w, &d.Derived, "unknown (a call had no price)", "unknown until the next reply (compacted)")
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	activity(out, &d.Derived)
}

// ClaudeShow is what a Claude Code transcript says, as `jig claude show`
// prints it.
func ClaudeShow(out io.Writer, d *transcript.Derived, offered, deferred []string) {
	w := NewColumns(out)
	agentHead(w, d)
	usage(w, d, "unknown (Claude has not said it since the last reply)", "unknown until the next reply")
	fmt.Fprintf(w, "tools\t%d offered, %d deferred\n", len(offered), len(deferred))
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	activity(out, d)
}

// CodexShow is what a Codex rollout says, as `jig codex show` prints it:
// window is the model's context window, called the tools it called.
func CodexShow(out io.Writer, d *transcript.Derived, window *int64, called []string) {
	w := NewColumns(out)
	agentHead(w, d)
	usage(w, d, "none (the rollout has no prices)", "unknown until the next response")
	if window != nil {
		fmt.Fprintf(w, "window\t%d tokens\n", *window)
	}
	fmt.Fprintf(w, "tools called\t%s\n", Clean(dash(strings.Join(called, ", "))))
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", d.Entries, d.Skipped)
	w.Flush()
	activity(out, d)
}

// agentHead is the first lines of Claude's and Codex's shows: the session,
// its file and start, its folder, model and effort.
func agentHead(w io.Writer, d *transcript.Derived) {
	fmt.Fprintf(w, "session\t%s\n", Clean(d.Header.ID))
	fmt.Fprintf(w, "file\t%s\n", Clean(d.File))
	fmt.Fprintf(w, "started\t%s\n", Clean(dash(d.Header.Timestamp)))
	fmt.Fprintf(w, "cwd\t%s\n", Clean(dash(d.Header.CWD)))
	fmt.Fprintf(w, "model\t%s\n", Clean(modelPath(d.Model)))
	fmt.Fprintf(w, "effort\t%s\n", Clean(dash(d.Thinking)))
}

func modelPath(m *status.Model) string {
	if m == nil {
		return "-"
	}
	return m.Provider + "/" + m.ID
}

// usage writes a transcript's usage and context lines, saying why one is
// unknown as the agent's reader knows it.
func usage(w io.Writer, d *transcript.Derived, unknownCost, unknownContext string) {
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

// activity writes a transcript's outputs and recent calls, as both shows
// end.
func activity(out io.Writer, d *transcript.Derived) {
	fmt.Fprintf(out, "\noutputs (%d)\n", len(d.Outputs))
	w := NewColumns(out)
	for _, o := range d.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", Clean(o.Action), o.At.Format(time.RFC3339), Clean(o.Path), Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(out, "\nrecent calls (%d, newest first)\n", len(d.Recent))
	w = NewColumns(out)
	for _, c := range d.Recent {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), Clean(c.Tool), Clean(dash(c.Action)), Clean(c.Outcome))
	}
	w.Flush()
}

// PiTree is every leaf of a Pi session, as `jig pi tree` prints it; t's
// prompts, labels and names are cleaned already.
func PiTree(out io.Writer, t *pitranscript.Tree) {
	fmt.Fprintf(out, "session %s  %s  (%d entries, %d %s, active %s)\n", Clean(t.Header.ID),
		Clean(t.File), t.Entries, len(t.Leaves), plural(len(t.Leaves), "leaf", "leaves"), Clean(t.Active))
	w := NewColumns(out)
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
		fmt.Fprintf(w, "%s %s\t%s\t%d\t%s\t%d\t%s\t%s%s\n", mark, Clean(l.ID), l.At.Format(time.RFC3339),
			l.Depth, dash(Clean(l.From)), u.Input+u.Output+u.CacheRead+u.CacheWrite, Money(u.Cost), prompt, leafExtra(l))
	}
	w.Flush()
}

// leafExtra is what a leaf's line ends with: its label, name and the
// summaries on its branch.
func leafExtra(l pitranscript.Leaf) string {
	extra := ""
	if l.Label != "" {
		extra += fmt.Sprintf("  [%s on %s]", l.Label, Clean(l.LabelOn))
	}
	if l.Name != "" {
		extra += fmt.Sprintf("  (%s)", l.Name)
	}
	var sums []string
	for _, s := range l.Summaries {
		sums = append(sums, Clean(s.Type+" "+s.ID))
	}
	if len(sums) > 0 {
		extra += "  after " + strings.Join(sums, ", ")
	}
	return extra
}

// Cleaned is what `jig session gc` did, on one line.
func Cleaned(w io.Writer, c status.Cleaned) {
	fmt.Fprintf(w, "removed %d ended %s, %d stale index %s", len(c.Sessions), plural(len(c.Sessions), "session", "sessions"),
		c.Markers, plural(c.Markers, "entry", "entries"))
	for _, n := range []struct {
		n         int
		one, many string
	}{
		{c.Temps, "unfinished write", "unfinished writes"},
		{c.Leftovers, "leftover of ended sessions", "leftovers of ended sessions"},
		{c.Links, "planted link", "planted links"},
	} {
		if n.n > 0 {
			fmt.Fprintf(w, ", %d %s", n.n, plural(n.n, n.one, n.many))
		}
	}
	fmt.Fprintln(w)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
