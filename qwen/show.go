package qwen

import qt "jig/qwen/transcript"

// Sessions are Qwen Code's sessions, newest first, from their
// transcripts' heads.
func Sessions(getenv func(string) string) ([]*qt.Info, error) {
	return qt.List(qt.ProjectsDir(Home(getenv)))
}

// Show reads a transcript whole: a file, or a session's by its id (or the
// start of it).
func Show(arg string, getenv func(string) string) (*qt.Shown, error) {
	file, err := qt.Find(arg, qt.ProjectsDir(Home(getenv)))
	if err != nil {
		return nil, err
	}
	return qt.Show(file)
}
