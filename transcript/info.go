package transcript

import (
	"bytes"
	"io"
	"os"
	"time"
)

// Info is what a session list shows about one file, read from its header
// and its session_info lines only.
type Info struct {
	ID       string    `json:"id"`
	CWD      string    `json:"cwd"`
	Started  string    `json:"started"`
	Parent   string    `json:"parent,omitempty"`
	Name     string    `json:"name,omitempty"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
	File     string    `json:"file"`
}

var sessionInfoMark = []byte(`"session_info"`)

// ReadInfo reads a session file's header (within the first 64 KB) and its
// latest session_info name. Only lines that mention session_info are
// parsed, so a long transcript costs one fast scan.
func ReadInfo(path string) (*Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotSession
	}
	info := &Info{Size: fi.Size(), Modified: fi.ModTime().UTC(), File: path}
	buf := make([]byte, 64<<10)
	var sc scanner
	var l line
	pos := int64(0) // file offset of buf[0]
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	// the header: the first line that parses
	rest := buf
	for {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, ErrNotSession
		}
		ln := bytes.TrimPrefix(rest[:nl], []byte("\xef\xbb\xbf"))
		rest = rest[nl+1:]
		if len(bytes.TrimSpace(ln)) == 0 || !parseLine(&sc, ln, &l) {
			continue
		}
		if l.typ != "session" || !l.hasID {
			return nil, ErrNotSession
		}
		break
	}
	info.ID, info.CWD, info.Started = l.id, l.cwd, l.timestamp
	info.Parent = l.parentSession
	if info.Parent == "" {
		info.Parent = l.branchedFrom
	}
	// session_info names: scan the rest, keeping a partial line between reads
	carry := append([]byte(nil), rest...)
	pos = int64(n)
	chunkBuf := make([]byte, 256<<10)
	for {
		for {
			nl := bytes.IndexByte(carry, '\n')
			if nl < 0 {
				break
			}
			ln := carry[:nl]
			if bytes.Contains(ln, sessionInfoMark) && parseLine(&sc, ln, &l) && l.typ == "session_info" && l.hasName && l.name != "" {
				info.Name = trimJS(l.name)
			}
			carry = carry[nl+1:]
		}
		if len(carry) > MaxLine {
			carry = nil // an over-long line is skipped, as the reader does
		}
		k, err := f.ReadAt(chunkBuf, pos)
		if k == 0 && err != nil {
			break
		}
		pos += int64(k)
		// only lines that may name the session need keeping whole
		next := append(carry[:len(carry):len(carry)], chunkBuf[:k]...)
		carry = next
		if !bytes.Contains(carry, sessionInfoMark) {
			// nothing to parse here: keep only the unfinished last line
			if i := bytes.LastIndexByte(carry, '\n'); i >= 0 {
				carry = append([]byte(nil), carry[i+1:]...)
			}
		}
	}
	return info, nil
}
