package status

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Every file jig reads that it did not make — a project's .pi/settings.json,
// .git/HEAD, jig's configuration, a ticket folder's files, a transcript, a
// user's tmux.conf — and every file of its own that a stranger could have
// replaced is opened here: without blocking, and checked before a byte is
// read. A fifo planted where a file goes would otherwise hold the open until
// a writer came (forever), /dev/zero or a sparse 1 GB file would be read to
// the end, and a folder would fail later with a stranger's words.

// ErrNotRegular is returned for a fifo, a folder, a device or a socket
// where a file should be.
var ErrNotRegular = errors.New("not a regular file")

// Links says whether a symlink at the path itself is followed.
type Links bool

const (
	FollowLinks Links = true  // a user's file, perhaps linked by a dotfiles manager
	NoLinks     Links = false // where no link belongs (jig's own files): ErrSymlink
)

// AnySize is the bound of a reader that reads a growing file (a transcript)
// in bounded steps itself.
const AnySize = -1

// OpenFile opens path for reading, never blocking: O_NONBLOCK (which
// changes nothing on a regular file) and, with NoLinks, O_NOFOLLOW. It
// keeps the file only when fstat says it is a regular file of at most max
// bytes (any size for AnySize). An error is an *fs.PathError, as the os
// package's are (FileError says it as "PATH: cause"), whose cause is
// ErrNotRegular, "larger than N bytes" or the system's; a link with NoLinks
// is ErrSymlink.
func OpenFile(path string, links Links, max int64) (*os.File, fs.FileInfo, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if links == NoLinks {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if links == NoLinks && errors.Is(err, syscall.ELOOP) {
			return nil, nil, fmt.Errorf("%w: %s", ErrSymlink, path)
		}
		if errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EOPNOTSUPP) {
			err = ErrNotRegular // a socket cannot even be opened (ENXIO; EOPNOTSUPP on macOS)
		}
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = ErrNotRegular
	case max >= 0 && fi.Size() > max:
		err = fmt.Errorf("larger than %d bytes", max)
	default:
		return f, fi, nil
	}
	f.Close()
	return nil, nil, &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
}

// ReadFile is OpenFile and the whole file read, up to max bytes whatever it
// grew to meanwhile.
func ReadFile(path string, links Links, max int64) ([]byte, error) {
	return readInto(path, links, max, nil)
}

// readInto is ReadFile reading into buf's space when it is large enough:
// a pass over thousands of files reuses one buffer.
func readInto(path string, links Links, max int64, buf []byte) ([]byte, error) {
	f, fi, err := OpenFile(path, links, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One read of the size the file has; a file grown since is read on, up
	// to the bound.
	if int64(cap(buf)) < fi.Size()+512 {
		buf = make([]byte, 0, fi.Size()+512)
	}
	b := bytes.NewBuffer(buf[:0])
	if max < 0 {
		_, err = b.ReadFrom(f)
	} else {
		_, err = b.ReadFrom(io.LimitReader(f, max))
	}
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrapPath(err)}
	}
	return b.Bytes(), nil
}

// OpenDir opens a folder to list it, never blocking on a fifo planted in
// its place (O_DIRECTORY refuses anything but a folder at once).
func OpenDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// FileError is err said as "PATH: cause", without the os package's "open
// PATH:" before the cause; errors.Is still sees the cause (fs.ErrNotExist,
// ErrNotRegular).
func FileError(path string, err error) error {
	return fmt.Errorf("%s: %w", path, unwrapPath(err))
}

// unwrapPath is the cause inside an *fs.PathError, else err.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
