package transcript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Listed is one agent transcript as `jig claude sessions` and `jig codex
// sessions` list it: read from the file's head, its size and its time,
// never from the whole file.
type Listed struct {
	ID       string    `json:"id"`
	Started  string    `json:"started"`
	Modified time.Time `json:"modified"`
	Size     int64     `json:"size"`
	CWD      string    `json:"cwd"`
	File     string    `json:"file"`
}

// List reads the head of every file pattern matches with read, newest
// first; a file read gives nil for (no transcript of the agent's) is left
// out.
func List(pattern string, read func(file string) (*Listed, error)) ([]*Listed, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []*Listed
	for _, f := range files {
		if in, _ := read(f); in != nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// Find takes a file path, or a session id (or its start) to look up among
// the transcripts list gives, which live in folder.
func Find(arg, folder string, list func() ([]*Listed, error)) (string, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		return arg, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	infos, err := list()
	if err != nil {
		return "", err
	}
	return MatchID(arg, folder, infos, func(in *Listed) (string, string) { return in.ID, in.File })
}

// StartedIn keeps the sessions of list whose folder (cwd) is dir, made
// absolute from the working folder; all of them when dir is "".
func StartedIn[T any](list []T, dir string, cwd func(T) string) ([]T, error) {
	if dir == "" {
		return list, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	kept := list[:0]
	for _, in := range list {
		if filepath.Clean(cwd(in)) == abs {
			kept = append(kept, in)
		}
	}
	return kept, nil
}
