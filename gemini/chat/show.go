package chat

import (
	"fmt"
	"io"
	"strings"
	"time"

	"jig/render"
	"jig/transcript"
)

// Shown is what `jig gemini show` says of a record read whole: what it
// derives, the record's own token counts, and the tools it called (never
// null). The context window is not recorded: null.
type Shown struct {
	*transcript.Derived
	Tokens Tokens   `json:"tokens"`
	Window *int64   `json:"window"`
	Called []string `json:"called"`
}

// Show reads the record whole. A file that is no Gemini chat record is
// status.ErrBadInput.
func Show(file string) (*Shown, error) {
	r := NewReader(file)
	if err := transcript.ReadWhole(r, file, "not a Gemini CLI chat record: no header naming a session"); err != nil {
		return nil, err
	}
	return &Shown{Derived: r.Derive(transcript.NewRepoFinder().Repo), Tokens: r.Totals(),
		Called: append([]string{}, r.Called()...)}, nil
}

// Print writes s for a terminal, every string of the record cleaned;
// nothing for a nil s.
func (s *Shown) Print(out io.Writer) {
	if s == nil {
		return
	}
	d := s.Derived
	w := render.NewColumns(out)
	model := "-"
	if d.Model != nil {
		model = d.Model.Provider + "/" + d.Model.ID
	}
	t := s.Tokens
	rows := [][2]string{
		{"session", d.Header.ID}, {"file", d.File}, {"started", d.Header.Timestamp}, {"model", model},
		{"usage", fmt.Sprintf("input %d, output %d, cache read %d, cost none (the record has no prices)",
			d.Usage.Input, d.Usage.Output, d.Usage.CacheRead)},
		{"tokens", fmt.Sprintf("input %d, output %d, cached %d, thoughts %d, tool %d, total %d (as recorded)",
			t.Input, t.Output, t.Cached, t.Thoughts, t.Tool, t.Total)},
		{"context", contextLine(d.ContextTokens)}, {"window", "not recorded"},
		{"tools called", strings.Join(s.Called, ", ")},
		{"entries", fmt.Sprintf("%d (%d lines skipped)", d.Entries, d.Skipped)},
	}
	for _, r := range rows {
		v := r[1]
		if v == "" {
			v = "-"
		}
		fmt.Fprintf(w, "%s\t%s\n", r[0], render.Clean(v))
	}
	w.Flush()
	fmt.Fprintf(out, "\noutputs (%d)\n", len(d.Outputs))
	w = render.NewColumns(out)
	for _, o := range d.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", o.Action, o.At.Format(time.RFC3339), render.Clean(o.Path), render.Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(out, "\nrecent calls (%d, newest first)\n", len(d.Recent))
	w = render.NewColumns(out)
	for _, c := range d.Recent {
		action := c.Action
		if action == "" {
			action = "-"
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), render.Clean(c.Tool), action, c.Outcome)
	}
	w.Flush()
}

func contextLine(tok *int64) string {
	if tok == nil {
		return "unknown until the next reply"
	}
	return fmt.Sprintf("%d tokens", *tok)
}
