package transcript

import (
	"path/filepath"

	base "jig/transcript"
)

// List reads the head of every transcript in Claude's projects folder (one
// folder per working folder), newest first. A file that is no transcript
// is left out.
func List(projects string) ([]*Info, error) {
	return base.List(filepath.Join(projects, "*", "*.jsonl"), ReadInfo)
}

// Find takes a file path, or a session id (or its start) to look up among
// the transcripts in projects.
func Find(arg, projects string) (string, error) {
	return base.Find(arg, projects, func() ([]*Info, error) { return List(projects) })
}
