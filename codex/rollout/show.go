package rollout

import (
	"fmt"
	"io"
	"strings"

	"jig/render"
	"jig/transcript"
)

// Shown is what `jig codex show` says of a rollout read whole: what it
// derives, its context window, and the tools it called (never null).
type Shown struct {
	*transcript.Derived
	Window *int64   `json:"window"`
	Called []string `json:"called"`
}

// Show reads the rollout file whole. A file that is no Codex rollout is
// status.ErrBadInput.
func Show(file string) (*Shown, error) {
	r := NewReader(file)
	if err := transcript.ReadWhole(r, file, "not a Codex rollout: no session_meta"); err != nil {
		return nil, err
	}
	return &Shown{Derived: r.Derive(transcript.NewRepoFinder().Repo), Window: r.Window(),
		Called: append([]string{}, r.Called()...)}, nil
}

// Print is what the rollout says, as `jig codex show` prints it: with the
// model's context window and the tools it called.
func (s *Shown) Print(out io.Writer) {
	w := render.NewColumns(out)
	render.ShowHead(w, s.Derived)
	render.ShowUsage(w, s.Derived, "none (the rollout has no prices)", "unknown until the next response")
	if s.Window != nil {
		fmt.Fprintf(w, "window\t%d tokens\n", *s.Window)
	}
	fmt.Fprintf(w, "tools called\t%s\n", render.Clean(render.Dash(strings.Join(s.Called, ", "))))
	fmt.Fprintf(w, "entries\t%d (%d lines skipped)\n", s.Entries, s.Skipped)
	w.Flush()
	render.ShowActivity(out, s.Derived)
}
