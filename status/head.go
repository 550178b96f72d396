package status

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Head is what finding, listing and cleaning sessions need of a status
// file: who wrote it, whether that process runs, its terminals, its times.
// Commands that go over every session read only this, so their cost and
// memory do not grow with the 50 + 50 outputs each file may hold.
//
// Decoding only these fields of a status file (json.Unmarshal into a Head)
// costs a third of decoding it all.
type Head struct {
	Name      string       `json:"-"` // the file's name without .json
	Schema    any          `json:"schema"`
	Session   string       `json:"session"`
	PID       int          `json:"pid"`
	PIDStart  string       `json:"pidStart"`
	Host      string       `json:"host"`
	Terminal  *string      `json:"terminal"`
	Terminals []TerminalID `json:"terminals"`
	StartedAt time.Time    `json:"startedAt"`
	UpdatedAt time.Time    `json:"updatedAt"`
}

// Status is the head's fields as a Status, for Liveness and HasTerminal.
func (h *Head) Status() *Status {
	return &Status{Schema: Schema, Session: h.Session, PID: h.PID, PIDStart: h.PIDStart, Host: h.Host,
		Terminal: h.Terminal, Terminals: h.Terminals, StartedAt: h.StartedAt, UpdatedAt: h.UpdatedAt}
}

// headKeys are the fields decodeHead reads, each with its bit.
var headKeys = map[string]uint{"schema": 1, "session": 2, "pid": 4, "pidStart": 8, "host": 16,
	"terminal": 32, "terminals": 64, "startedAt": 128, "updatedAt": 256}

// decodeHead reads a status file's head fields from r, stopping as soon as
// it has what was asked for. jig writes them first (updatedAt aside), so a
// file of jig's is read no further than its terminals. A file written in
// another order is read until the fields are found, or to its end.
func decodeHead(r io.Reader, times bool) (*Head, error) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	h := &Head{}
	var seen uint
	done := func() bool {
		need := uint(1 | 2 | 4 | 16 | 64)
		if seen&need != need {
			return false
		}
		if times {
			return seen&(128|256) == 128|256
		}
		// without pidStart, liveness compares the process's start with startedAt
		return seen&(8|128) != 0
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, endError(err)
		}
		key, _ := t.(string)
		bit := headKeys[key]
		var dst any
		switch key {
		case "schema":
			dst = &h.Schema
		case "session":
			dst = &h.Session
		case "pid":
			dst = &h.PID
		case "pidStart":
			dst = &h.PIDStart
		case "host":
			dst = &h.Host
		case "terminal":
			dst = &h.Terminal
		case "terminals":
			dst = &h.Terminals
		case "startedAt":
			dst = &h.StartedAt
		case "updatedAt":
			dst = &h.UpdatedAt
		default:
			dst = &json.RawMessage{}
		}
		if err := dec.Decode(dst); err != nil {
			return nil, fmt.Errorf("field %s: %v", key, endError(err))
		}
		seen |= bit
		if done() {
			break
		}
	}
	if !done() {
		// read to the end: the object must close
		if t, err := dec.Token(); err != nil || t != json.Delim('}') {
			return nil, errors.New("unexpected end of JSON input")
		}
	}
	if h.Schema != float64(Schema) {
		return nil, fmt.Errorf("schema %v, this jig reads schema %d", h.Schema, Schema)
	}
	return h, nil
}

// endError says a file cut short as Decode does.
func endError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of JSON input")
	}
	return err
}

// headRead is how much of a file readHead reads first: a head jig wrote
// ends within about 1 KB.
const headRead = 4096

// headOf is the head of the start of a status file: read line by line when
// it is laid out as Encode writes it (each top-level key on a line of its
// own, two spaces in), so nothing but the head's values is decoded; else
// decoded in order (decodeHead).
func headOf(data []byte) (*Head, error) {
	if h, ok := headByLines(data); ok {
		return h, nil
	}
	return decodeHead(bytes.NewReader(data), false)
}

// headByLines reads the head fields of a file in Encode's layout. A line
// "\n  \"key\": " can only be a top-level key there: a string holds no raw
// newline, and deeper keys are indented further. ok is false when a field
// is missing (an older file without pidStart needs startedAt, at the end)
// or any value does not decode. Each value is read as decodeFast reads it,
// without reflection (encoding/json would first build its decoder of the
// terminals' type, most of a status line's work), and by json.Unmarshal
// when it is not as Encode writes it.
func headByLines(data []byte) (*Head, bool) {
	h := &Head{}
	for _, f := range [...]struct {
		key  string
		into func(v []byte) bool
		need bool
	}{
		{"schema", func(v []byte) bool { return decodeValue(v, &h.Schema, decodeNumber) == nil }, true},
		{"session", func(v []byte) bool { return decodeValue(v, &h.Session, decodeString) == nil }, true},
		{"pid", func(v []byte) bool { return decodeValue(v, &h.PID, decodeInt) == nil }, true},
		{"pidStart", func(v []byte) bool { return decodeValue(v, &h.PIDStart, decodeString) == nil }, true},
		{"host", func(v []byte) bool { return decodeValue(v, &h.Host, decodeString) == nil }, true},
		{"terminal", func(v []byte) bool {
			return decodeValue(v, &h.Terminal, func(d *decoder, p **string) bool { return decodePtr(d, p, decodeString) }) == nil
		}, false},
		{"terminals", func(v []byte) bool {
			return decodeValue(v, &h.Terminals, func(d *decoder, p *[]TerminalID) bool {
				return decodeSlice(d, p, decodeTerminalID)
			}) == nil
		}, true},
	} {
		key := []byte("\n  \"" + f.key + "\": ")
		i := bytes.Index(data, key)
		if i < 0 {
			if f.need {
				return nil, false
			}
			continue
		}
		v := data[i+len(key):]
		end := bytes.Index(v, []byte(",\n  \"")) // the next top-level key
		if end < 0 || !f.into(v[:end]) {
			return nil, false
		}
	}
	if h.Schema != float64(Schema) {
		return nil, false
	}
	return h, true
}

// decodeNumber reads a number into an any, as encoding/json does: a
// float64 (null, which leaves it nil, is json.Unmarshal's).
func decodeNumber(d *decoder, p *any) bool {
	var f float64
	if d.null() || !decodeFloat(d, &f) {
		return false
	}
	*p = f
	return true
}

// decodeValue lays the JSON value data over the zero value p points to as
// json.Unmarshal does: by read when it takes the whole of data (decode.go),
// else by json.Unmarshal, which says what is wrong.
func decodeValue[T any](data []byte, p *T, read func(*decoder, *T) bool) error {
	d := decoder{data: data, i: skipSpace(data, 0)}
	var v T
	if read(&d, &v) && d.i == len(data) {
		*p = v
		return nil
	}
	return json.Unmarshal(data, p)
}

// readHead reads the head of one status file, its first headRead bytes,
// without following a symlink or blocking on a fifo, and reads the whole
// file only when its head is longer. Raw system calls, not an os.File:
// registering each file with Go's poller costs as much as reading its
// head, and gc reads thousands.
func readHead(path string) (*Head, error) {
	fd, _, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, headRead)
	n, err := unix.Read(fd, buf)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	h, err := headOf(buf[:n])
	if err != nil && n == len(buf) {
		data, rerr := ReadFileNoFollow(path) // a head longer than buf
		if rerr != nil {
			return nil, rerr
		}
		h, err = headOf(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// tailRead is how much of a file's end readHeadTimes reads for its times.
const tailRead = 512

// readHeadTimes is readHead with startedAt and updatedAt, which jig writes
// last: the head is read from the start and the times from the last bytes,
// so the outputs between are never read. A file not in jig's layout is read
// and decoded whole.
func readHeadTimes(path string) (*Head, error) {
	fd, size, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, headRead+tailRead)
	n, err := unix.Read(fd, buf[:headRead])
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	tail := buf[headRead:]
	k, rerr := unix.Pread(fd, tail, max(size-tailRead, 0))
	if rerr == nil {
		if h, ok := headTimes(buf[:n], tail[:k]); ok {
			return h, nil
		}
	}
	data, err := ReadFileNoFollow(path) // not jig's layout: decoded in order
	if err != nil {
		return nil, err
	}
	return headInOrder(path, data)
}

// headTimes is the head of a file in jig's layout, from its first headRead
// bytes, with its times from its last tailRead bytes; ok is false for a
// file laid out otherwise.
func headTimes(head, tail []byte) (*Head, bool) {
	h, err := headOf(head)
	if err != nil {
		return nil, false
	}
	var ok bool
	h.UpdatedAt, ok = lastTime(tail, "updatedAt")
	if ok && h.StartedAt.IsZero() {
		h.StartedAt, ok = lastTime(tail, "startedAt")
	}
	return h, ok
}

// headInOrder is the head of the whole file data, times and all, decoded
// in order: for a file not in jig's layout.
func headInOrder(path string, data []byte) (*Head, error) {
	h, err := decodeHead(bytes.NewReader(data), true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// openRaw opens a regular status file for reading with plain system calls,
// without following a symlink or blocking on a fifo, and gives its size.
func openRaw(path string) (int, int64, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return -1, 0, fmt.Errorf("%w: %s", ErrSymlink, path)
		}
		return -1, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	err = unix.Fstat(fd, &st)
	switch {
	case err != nil:
		err = &fs.PathError{Op: "stat", Path: path, Err: err}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		err = fmt.Errorf("%s is not a regular file", path)
	case st.Size > MaxFileSize:
		err = fmt.Errorf("%s is larger than %d bytes", path, MaxFileSize)
	}
	if err != nil {
		unix.Close(fd)
		return -1, 0, err
	}
	return fd, st.Size, nil
}

// lastTime finds a time field near the end of a status file as jig writes
// it: "key": "…" with only the object's closing brace after it (for
// updatedAt), or followed by updatedAt (for startedAt). Anything else is
// not found, and the caller decodes the file in order.
func lastTime(data []byte, key string) (time.Time, bool) {
	prefix := []byte(`"` + key + `": "`)
	i := bytes.LastIndex(data, prefix)
	if i < 0 {
		return time.Time{}, false
	}
	v := data[i+len(prefix):]
	end := bytes.IndexByte(v, '"')
	if end < 0 {
		return time.Time{}, false
	}
	rest := bytes.TrimSpace(v[end+1:])
	switch key {
	case "updatedAt":
		if string(rest) != "}" {
			return time.Time{}, false
		}
	default:
		if !bytes.HasPrefix(rest, []byte(`,`)) || !bytes.HasPrefix(bytes.TrimSpace(rest[1:]), []byte(`"updatedAt"`)) {
			return time.Time{}, false
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(v[:end]))
	return t, err == nil
}

// listBatch is how many names a listing reads from the folder at a time.
const listBatch = 1024

// EachHead calls fn with the head of every status file, one at a time, in
// the order the folder lists them; a file that cannot be read comes with
// its error (a warning, never the end of the listing). The heads of a batch
// of names are read in parallel; memory stays the same whatever the number
// of sessions. times asks for startedAt and
// updatedAt too, which sit at the end of a file.
func (d *Dir) EachHead(times bool, fn func(h *Head, err error) error) error {
	return d.eachBatch(func(files []string) error {
		heads := make([]*Head, len(files))
		errs := make([]error, len(files))
		inParallel(len(files), func(i int) {
			if times {
				heads[i], errs[i] = readHeadTimes(d.Path(SessionsDir, files[i]))
			} else {
				heads[i], errs[i] = readHead(d.Path(SessionsDir, files[i]))
			}
			if heads[i] == nil {
				heads[i] = &Head{}
			}
			heads[i].Name = strings.TrimSuffix(files[i], ".json")
		})
		for i, h := range heads {
			if err := fn(h, errs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// EachFile reads the file of every live session (with all, of every one),
// each once and whole, and hands its head and its bytes to a worker: the
// files are shared out among goroutines, newWorker is called once on each
// to make the function that goroutine calls with each file it read (so a
// worker may keep caches of its own), and data is valid only during that
// call. A file that cannot be read, or is not one JSON object, is skipped.
// It checks what EachHead and ReadRaw check: a private state dir, no
// symlink, a regular file within MaxFileSize.
func (d *Dir) EachFile(all bool, live Liveness, newWorker func() func(h *Head, data []byte)) error {
	return d.eachBatch(func(files []string) error {
		inParallelWith(len(files), func() func(i int) {
			live, fn := live.Memo(), newWorker() // a Memo is not safe for concurrent use
			var buf []byte
			return func(i int) {
				path := d.Path(SessionsDir, files[i])
				data, err := readRaw(path, buf)
				if err != nil {
					return
				}
				buf = data
				h, err := headOfFile(path, data)
				if err != nil || !all && !live.Alive(h.Status()) {
					return
				}
				h.Name = strings.TrimSuffix(files[i], ".json")
				fn(h, data)
			}
		})
		return nil
	})
}

// headOfFile is the head of a whole status file, times and all, read as
// EachHead reads it; an error for bytes that are not one JSON object.
func headOfFile(path string, data []byte) (*Head, error) {
	if t := bytes.TrimSpace(data); len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	if h, ok := headTimes(data[:min(len(data), headRead)], data[max(len(data)-tailRead, 0):]); ok {
		return h, nil
	}
	return headInOrder(path, data)
}

// readRaw reads a whole status file with plain system calls (openRaw), up
// to MaxFileSize whatever it grew to meanwhile, into buf's space when it
// is large enough (the result then aliases buf).
func readRaw(path string, buf []byte) ([]byte, error) {
	fd, size, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	if int64(cap(buf)) < size+512 {
		buf = make([]byte, 0, size+512)
	}
	buf = buf[:0]
	for len(buf) < MaxFileSize {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), MaxFileSize-len(buf)))
		}
		n, err := unix.Read(fd, buf[len(buf):min(cap(buf), MaxFileSize)])
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

// eachBatch calls fn with each batch of status files' names the sessions
// folder lists (no temp files, no strangers), after checking the state dir
// is safe.
func (d *Dir) eachBatch(fn func(files []string) error) error {
	if err := d.Check(SessionsDir); err != nil {
		return err
	}
	f, err := os.OpenFile(d.Path(SessionsDir), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return Mark(ErrStateDir, err)
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(listBatch)
		var files []string
		for _, n := range names {
			if !strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".json") {
				files = append(files, n) // not temp files and strangers
			}
		}
		if ferr := fn(files); ferr != nil {
			return ferr
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return Mark(ErrStateDir, err)
		}
	}
}

// ReadRaw returns a status file's bytes as they are, for readers that pass
// the document on (session list --json), in buf's space when it is large
// enough (the result then aliases buf). It checks the bytes are one JSON
// object by their ends only: EachHead with times has read the file as far
// as its layout allows, and decoded in full one that is not in jig's.
func (d *Dir) ReadRaw(name string, buf []byte) ([]byte, error) {
	path := d.Path(SessionsDir, name+".json")
	data, err := readInto(path, NoLinks, MaxFileSize, buf)
	if err != nil {
		return nil, err
	}
	t := bytes.TrimSpace(data)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	return data, nil
}
