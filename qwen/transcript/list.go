package transcript

import (
	"path/filepath"

	pi "jig/transcript"
)

// ProjectsDir is where Qwen Code keeps its transcripts, one folder per
// working folder (its path with / as -), each with a chats folder.
func ProjectsDir(qwenDir string) string { return filepath.Join(qwenDir, "projects") }

// List reads the head of every transcript under projects, newest first.
// A file that is no transcript is left out.
func List(projects string) ([]*Info, error) {
	return pi.List(filepath.Join(projects, "*", "chats", "*.jsonl"), ReadInfo)
}

// Find takes a file path, or a session id (or its start) to look up among
// the transcripts under projects.
func Find(arg, projects string) (string, error) {
	return pi.Find(arg, projects, func() ([]*Info, error) { return List(projects) })
}

// Shown is what `jig qwen show` says of a transcript read whole: what it
// derives, the window it records and the tools the model called.
type Shown struct {
	*pi.Derived
	Window *int64   `json:"window"`
	Called []string `json:"called"`
}

// Show reads the transcript file whole. A file that is no Qwen Code
// transcript is status.ErrBadInput.
func Show(file string) (*Shown, error) {
	r := NewReader(file)
	if err := pi.ReadWhole(r, file, "not a Qwen Code transcript: no session id"); err != nil {
		return nil, err
	}
	return &Shown{Derived: r.Derive(pi.NewRepoFinder().Repo), Window: r.Window(), Called: append([]string{}, r.Called()...)}, nil
}
