package render

import (
	"fmt"
	"io"
	"time"

	"jig/status"
	"jig/transcript"
)

// The parts every agent's views of its own files share (the sessions
// table, the head, usage and activity of a show; each agent prints its
// show with them), and what gc did. Paths, names and ids in them are
// chosen by the agent: every one is cleaned.

// AgentSessions is the table of an agent's sessions command (`jig claude
// sessions`, `jig codex sessions`), from the heads its reader listed.
func AgentSessions(w io.Writer, infos []*transcript.Listed) {
	tw := NewColumns(w)
	fmt.Fprintln(tw, "ID\tSTARTED\tMODIFIED\tSIZE\tCWD\tFILE")
	for _, in := range infos {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", Clean(in.ID), Clean(Dash(in.Started)),
			in.Modified.Format(time.RFC3339), Size(in.Size), Clean(Dash(in.CWD)), Clean(in.File))
	}
	tw.Flush()
}

// ShowHead is the first lines of an agent's show: the session, its file
// and start, its folder, model and effort.
func ShowHead(w io.Writer, d *transcript.Derived) {
	fmt.Fprintf(w, "session\t%s\n", Clean(d.Header.ID))
	fmt.Fprintf(w, "file\t%s\n", Clean(d.File))
	fmt.Fprintf(w, "started\t%s\n", Clean(Dash(d.Header.Timestamp)))
	fmt.Fprintf(w, "cwd\t%s\n", Clean(Dash(d.Header.CWD)))
	fmt.Fprintf(w, "model\t%s\n", Clean(ModelPath(d.Model)))
	fmt.Fprintf(w, "effort\t%s\n", Clean(Dash(d.Thinking)))
}

// ModelPath is a model as a show names it: provider/id, "-" for none.
func ModelPath(m *status.Model) string {
	if m == nil {
		return "-"
	}
	return m.Provider + "/" + m.ID
}

// ShowUsage writes a transcript's usage and context lines, saying why one
// is unknown as the agent's reader knows it.
func ShowUsage(w io.Writer, d *transcript.Derived, unknownCost, unknownContext string) {
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

// ShowActivity writes a transcript's outputs and recent calls, as every
// show ends.
func ShowActivity(out io.Writer, d *transcript.Derived) {
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
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), Clean(c.Tool), Clean(Dash(c.Action)), Clean(c.Outcome))
	}
	w.Flush()
}

// Cleaned is what `jig session gc` did, on one line.
func Cleaned(w io.Writer, c status.Cleaned) {
	fmt.Fprintf(w, "removed %d ended %s, %d stale index %s", len(c.Sessions), Plural(len(c.Sessions), "session", "sessions"),
		c.Markers, Plural(c.Markers, "entry", "entries"))
	for _, n := range []struct {
		n         int
		one, many string
	}{
		{c.Temps, "unfinished write", "unfinished writes"},
		{c.Leftovers, "leftover of ended sessions", "leftovers of ended sessions"},
		{c.Links, "planted link", "planted links"},
	} {
		if n.n > 0 {
			fmt.Fprintf(w, ", %d %s", n.n, Plural(n.n, n.one, n.many))
		}
	}
	fmt.Fprintln(w)
}

// Plural is one or many by n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Dash is s, or "-" for nothing.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Size is a file size as a listing shows it: 12B, 3.4K, 5.6M.
func Size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fK", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}
