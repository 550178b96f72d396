package transcript

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync"
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

// infoBufs keeps ReadInfo's two buffers (the header window, the scan) for
// the next file: a listing reads hundreds.
var infoBufs = sync.Pool{New: func() any { return &[2][]byte{make([]byte, HeaderWindow), make([]byte, 1<<20)} }}

var sessionInfoMark = []byte(`{"type":"session_info"`)

// lineAt is the line from data[at] to its newline (read on from the file
// when it runs past data); nil when there is no newline yet.
func lineAt(f *os.File, data []byte, at int, pos int64) []byte {
	if nl := bytes.IndexByte(data[at:], '\n'); nl >= 0 {
		return data[at : at+nl]
	}
	var out []byte
	buf := make([]byte, 4096)
	off := pos + int64(at)
	for len(out) < MaxLine {
		k, err := f.ReadAt(buf, off)
		if nl := bytes.IndexByte(buf[:k], '\n'); nl >= 0 {
			return append(out, buf[:nl]...)
		}
		out = append(out, buf[:k]...)
		off += int64(k)
		if err != nil {
			return nil
		}
	}
	return nil
}

// ReadHeader reads only a session file's header (within the first 64 KB),
// by UpdateSession's rule. Errors name the file.
func ReadHeader(path string) (*Header, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	buf := make([]byte, HeaderWindow)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fileError(path, err)
	}
	var sc scanner
	var l line
	if _, ok := firstLine(&sc, buf[:n], &l); !ok {
		return nil, fileError(path, ErrNotSession)
	}
	var r Reader
	r.setHeader(&l)
	return &r.header, nil
}

// firstLine finds the header in buf: the first line that parses must be
// one. It returns what follows the header line.
func firstLine(sc *scanner, buf []byte, l *line) ([]byte, bool) {
	rest := buf
	for {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, false
		}
		ln := rest[:nl]
		if len(rest) == len(buf) {
			ln = bytes.TrimPrefix(ln, []byte("\xef\xbb\xbf"))
		}
		rest = rest[nl+1:]
		if len(bytes.TrimSpace(ln)) == 0 || !parseLine(sc, ln, l) {
			continue
		}
		return rest, l.typ == "session" && l.hasID
	}
}

// ReadInfo reads a session file's header (within the first 64 KB) and its
// latest session_info name. Only lines that mention session_info are
// parsed, so a long transcript costs one fast scan.
func ReadInfo(path string) (*Info, error) {
	f, fi, err := openRegular(path) // a fifo must not block a listing
	if errors.Is(err, ErrNotRegular) {
		return nil, ErrNotSession
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info := &Info{Size: fi.Size(), Modified: fi.ModTime().UTC(), File: path}
	bufs := infoBufs.Get().(*[2][]byte)
	defer infoBufs.Put(bufs)
	buf := bufs[0][:min(HeaderWindow, fi.Size()+1)]
	var sc scanner
	var l line
	pos := int64(0) // file offset of buf[0]
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	rest, ok := firstLine(&sc, buf, &l)
	if !ok {
		return nil, ErrNotSession
	}
	info.ID, info.CWD, info.Started = l.id.text(), l.cwd, l.timestamp
	info.Parent = l.parentSession
	if info.Parent == "" {
		info.Parent = l.branchedFrom
	}
	// session_info names: Pi writes the type first, and inside a JSON
	// string a quote is escaped, so these bytes start only a real object
	pos = int64(n) - int64(len(rest))
	big := bufs[1][:max(min(1<<20, fi.Size()-pos+1), int64(len(sessionInfoMark)))]
	for {
		k, err := f.ReadAt(big, pos)
		data := big[:k]
		for at := 0; ; {
			i := bytes.Index(data[at:], sessionInfoMark)
			if i < 0 {
				break
			}
			at += i
			if ln := lineAt(f, data, at, pos); ln != nil && parseLine(&sc, ln, &l) && l.typ == "session_info" && l.hasName && l.name != "" {
				info.Name = trimJS(l.name)
			}
			at++
		}
		if err != nil || k < len(big) {
			break
		}
		pos += int64(k - len(sessionInfoMark) + 1)
	}
	return info, nil
}
