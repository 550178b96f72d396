package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"jig/status"
)

// chunk is what one read of Lines takes at most, unless a line needs more.
const chunk = 256 << 10

// Lines reads the complete lines of f from offset on, chunk by chunk into
// buf (grown while a line needs it), and calls line with each (without its
// newline) and its offset in the file. A line longer than limit is skipped
// unread and said with tooLong. A last line without its newline is left:
// the agent may be writing it. It returns the offset after the last
// complete line taken (where the next read starts), and the buffer to keep
// for it (nil after a huge line). The agents' incremental readers read
// this way.
func Lines(f io.ReaderAt, offset, size int64, buf []byte, limit int,
	line func(b []byte, off int64) error, tooLong func(off int64)) (int64, []byte, error) {
	// an update after an append reads a few KB: size the buffer to it
	want := int(min(int64(chunk), max(size-offset+1, 4096)))
	if cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	pos := offset     // file position of buf[0]
	skipping := false // inside an over-long line
	var skipStart int64
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= limit {
				if !skipping {
					skipping, skipStart = true, pos
				}
				pos += int64(len(buf))
				buf = buf[:0]
			} else {
				nb := make([]byte, len(buf), 2*cap(buf))
				copy(nb, buf)
				buf = nb
			}
		}
		n, err := f.ReadAt(buf[len(buf):cap(buf)], pos+int64(len(buf)))
		buf = buf[:len(buf)+n]
		// consume every complete line in buf
		start := 0
		for {
			nl := bytes.IndexByte(buf[start:], '\n')
			if nl < 0 {
				break
			}
			switch {
			case skipping:
				skipping = false
				tooLong(skipStart)
			case nl > limit:
				tooLong(pos + int64(start))
			default:
				if lerr := line(buf[start:start+nl], pos+int64(start)); lerr != nil {
					return pos + int64(start), nil, lerr
				}
			}
			start += nl + 1
			offset = pos + int64(start)
		}
		if start > 0 {
			rest := copy(buf, buf[start:])
			pos += int64(start)
			buf = buf[:rest]
		}
		if err == io.EOF || n == 0 && err == nil {
			break
		}
		if err != nil {
			return offset, nil, err
		}
	}
	if cap(buf) > 4*chunk {
		buf = nil // do not keep a huge line's buffer
	}
	return offset, buf[:0], nil
}

// ErrLineTooLong: a line longer than a status file is no line an agent's
// plugin or extension sends its bridge.
var ErrLineTooLong = fmt.Errorf("bridge: a line longer than %d bytes: skipped", status.MaxFileSize)

// ReadLine reads one line without its "\n". A line longer than limit bytes
// is read to its end but not kept (ErrLineTooLong), so the next call
// starts at the line after it. io.EOF once nothing is left.
func ReadLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if n <= limit+1 {
			line = append(line, chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && n > 0: // the last line, without "\n"
		case err != nil:
			return nil, err
		default:
			n-- // the "\n"
		}
		if n > limit {
			return nil, ErrLineTooLong
		}
		return line[:n], nil
	}
}
