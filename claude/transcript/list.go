package transcript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	pi "jig/transcript"
)

// List reads the head of every transcript in Claude's projects folder (one
// folder per working folder), newest first. A file that is no transcript
// is left out.
func List(projects string) ([]*Info, error) {
	files, err := filepath.Glob(filepath.Join(projects, "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []*Info
	for _, f := range files {
		if in, _ := ReadInfo(f); in != nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// Find takes a file path, or a session id (or its start) to look up among
// the transcripts in projects.
func Find(arg, projects string) (string, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		return arg, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	infos, err := List(projects)
	if err != nil {
		return "", err
	}
	return pi.MatchID(arg, projects, infos, func(in *Info) (string, string) { return in.ID, in.File })
}
