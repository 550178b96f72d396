package main

import (
	"path/filepath"

	"jig/transcript"
)

// transcriptSession is the absolute path of the Pi session file that
// `jig session write --transcript` reads, and the session's id: the one
// given, else the file's header's (the file must then be a Pi session).
func transcriptSession(file, id string) (abs, session string, err error) {
	if abs, err = filepath.Abs(file); err != nil {
		return "", "", err
	}
	if id == "" {
		h, err := transcript.ReadHeader(abs)
		if err != nil {
			return "", "", err
		}
		id = h.ID
	}
	return abs, id, nil
}
