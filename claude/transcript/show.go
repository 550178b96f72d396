package transcript

import (
	"fmt"
	"io"

	"jig/render"
	base "jig/transcript"
)

// Shown is what `jig claude show` says of a transcript read whole: what it
// derives, and the tools and skills Claude offered (lists, never null).
type Shown struct {
	*base.Derived
	Offered  []string `json:"offered"`
	Deferred []string `json:"deferred"`
	Skills   []string `json:"skills"`
}

// Show reads the transcript file whole. A file that is no Claude Code
// transcript is status.ErrBadInput.
func Show(file string) (*Shown, error) {
	r := NewReader(file)
	if err := base.ReadWhole(r, file, "not a Claude Code transcript: no session id"); err != nil {
		return nil, err
	}
	offered, deferred := r.Tools()
	return &Shown{Derived: r.Derive(base.NewRepoFinder().Repo), Offered: append([]string{}, offered...),
		Deferred: append([]string{}, deferred...), Skills: append([]string{}, r.Skills()...)}, nil
}

// Print is what the transcript says, as `jig claude show` prints it.
func (s *Shown) Print(out io.Writer) {
	w := render.NewColumns(out)
	render.ShowHead(w, s.Derived)
	render.ShowUsage(w, s.Derived, "unknown (Claude has not said it since the last reply)", "unknown until the next reply")
	fmt.Fprintf(w, "tools\t%d offered, %d deferred\n", len(s.Offered), len(s.Deferred))
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", s.Entries, s.Skipped)
	w.Flush()
	render.ShowActivity(out, s.Derived)
}
