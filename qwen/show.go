package qwen

import (
	"fmt"
	"io"
	"strings"
	"time"

	qt "jig/qwen/transcript"
	"jig/render"
)

// PrintShow is what a Qwen Code transcript says, as `jig qwen show`
// prints it. Every string the agent or its model chose is cleaned.
func PrintShow(out io.Writer, s *qt.Shown) {
	w := render.NewColumns(out)
	model := "-"
	if s.Model != nil {
		model = s.Model.Provider + "/" + s.Model.ID
	}
	ctx, window := "unknown until the next reply", "not recorded (the Stop hook says it)"
	if s.ContextTokens != nil {
		ctx = fmt.Sprintf("%d tokens", *s.ContextTokens)
	}
	if s.Window != nil {
		window = fmt.Sprintf("%d tokens", *s.Window)
	}
	for _, row := range [][2]string{
		{"session", s.Header.ID}, {"file", s.File}, {"started", dash(s.Header.Timestamp)}, {"cwd", dash(s.Header.CWD)},
		{"model", model},
		{"usage", fmt.Sprintf("input %d, output %d, cache read %d, cost none (Qwen Code records no prices)", s.Usage.Input, s.Usage.Output, s.Usage.CacheRead)},
		{"context", ctx}, {"window", window}, {"tools called", dash(strings.Join(s.Called, ", "))},
		{"entries", fmt.Sprintf("%d (%d lines skipped)", s.Entries, s.Skipped)},
	} {
		fmt.Fprintf(w, "%s\t%s\n", row[0], render.Clean(row[1]))
	}
	w.Flush()
	fmt.Fprintf(out, "\noutputs (%d)\n", len(s.Outputs))
	w = render.NewColumns(out)
	for _, o := range s.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", o.Action, o.At.Format(time.RFC3339), render.Clean(o.Path), render.Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(out, "\nrecent calls (%d, newest first)\n", len(s.Recent))
	w = render.NewColumns(out)
	for _, c := range s.Recent {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), render.Clean(c.Tool), dash(c.Action), c.Outcome)
	}
	w.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
