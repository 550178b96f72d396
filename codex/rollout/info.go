package rollout

import (
	"encoding/json"
	"io"
	"os"
	"syscall"

	"jig/transcript"
)

// headWindow is how much of a rollout Info reads: its first line,
// session_meta, names the session, its folder and its start before the
// long instructions that follow in the same line.
const headWindow = 64 << 10

// Info is what `jig codex sessions` lists: read from a rollout's first
// line and the file's size and time, never from the whole file.
type Info = transcript.Listed

// ReadInfo reads a rollout's head, without blocking and from a regular
// file only. A file whose first line is not a session_meta naming a
// session is not a Codex rollout: nil.
func ReadInfo(path string) (*Info, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, err
	}
	in := &Info{Modified: fi.ModTime().UTC(), Size: fi.Size(), File: path}
	if !readMeta(json.NewDecoder(io.LimitReader(f, headWindow)), in) || in.ID == "" {
		return nil, nil
	}
	return in, nil
}

// readMeta reads the first line token by token, up to the fields Info
// wants: the line's instructions, often longer than the window, are never
// reached.
func readMeta(dec *json.Decoder, in *Info) bool {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	isMeta := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "type":
			var typ string
			if dec.Decode(&typ) != nil || typ != "session_meta" {
				return false
			}
			isMeta = true
		case "payload":
			return isMeta && readPayload(dec, in)
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
	}
	return false
}

func readPayload(dec *json.Decoder, in *Info) bool {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	fields := map[string]*string{"id": &in.ID, "timestamp": &in.Started, "cwd": &in.CWD}
	for dec.More() && (in.ID == "" || in.Started == "" || in.CWD == "") {
		key, err := dec.Token()
		if err != nil {
			return in.ID != ""
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return in.ID != ""
		}
		if k, _ := key.(string); fields[k] != nil && *fields[k] == "" {
			json.Unmarshal(v, fields[k])
		}
	}
	return true
}
