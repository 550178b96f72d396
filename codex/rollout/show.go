package rollout

import "jig/transcript"

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
