package rollout

import (
	"path/filepath"

	"jig/transcript"
)

// List reads the first line of every rollout in Codex's sessions folder
// (sessions/YYYY/MM/DD/rollout-*.jsonl), newest first. A file that is no
// rollout is left out.
func List(sessions string) ([]*Info, error) {
	return transcript.List(filepath.Join(sessions, "*", "*", "*", "rollout-*.jsonl"), ReadInfo)
}

// Find takes a file path, or a session id (or its start) to look up among
// the rollouts in sessions.
func Find(arg, sessions string) (string, error) {
	return transcript.Find(arg, sessions, func() ([]*Info, error) { return List(sessions) })
}
