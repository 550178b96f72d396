package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"jig/status"
	base "jig/transcript"
)

// headWindow is how much of a transcript Info reads: its first entries
// name the session, its folder and its start.
const headWindow = 64 << 10

// Info is what `jig claude sessions` lists: read from a transcript's head
// and the file's size and time, never from the whole file.
type Info = base.Listed

// ReadInfo reads a transcript's head. A file whose head names no session
// is not a Claude transcript: nil.
func ReadInfo(path string) (*Info, error) {
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize) // a fifo must not block a listing
	if errors.Is(err, status.ErrNotRegular) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, headWindow)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	in := &Info{Modified: fi.ModTime().UTC(), Size: fi.Size(), File: path}
	for _, l := range bytes.Split(head[:n], []byte{'\n'}) {
		var e struct {
			SessionID string `json:"sessionId"`
			Timestamp string `json:"timestamp"`
			CWD       string `json:"cwd"`
		}
		if json.Unmarshal(l, &e) != nil {
			continue // not JSON, or the window cut it
		}
		if in.ID == "" {
			in.ID = e.SessionID
		}
		if in.Started == "" {
			in.Started = e.Timestamp
		}
		if in.CWD == "" {
			in.CWD = e.CWD
		}
		if in.ID != "" && in.Started != "" && in.CWD != "" {
			break
		}
	}
	if in.ID == "" {
		return nil, nil
	}
	return in, nil
}
