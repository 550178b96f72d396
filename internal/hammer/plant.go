package hammer

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// What a hostile repository or a careless hand puts where jig reads a file:
// each must be refused at once, never block a reader nor be read whole.
const (
	Fifo      = "a fifo"
	Folder    = "a folder"
	DevZero   = "a link to /dev/zero"
	Sparse    = "a 1 GB sparse file"
	FifoLink  = "a link to a fifo"
	BigSparse = 1 << 30
)

// Plants are every kind Plant makes.
var Plants = []string{Fifo, Folder, DevZero, Sparse, FifoLink}

// Plant puts kind at path, making the folders above it.
func Plant(t testing.TB, path, kind string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case Fifo:
		err = syscall.Mkfifo(path, 0o600)
	case Folder:
		err = os.Mkdir(path, 0o700)
	case DevZero:
		err = os.Symlink("/dev/zero", path)
	case Sparse:
		var f *os.File
		if f, err = os.Create(path); err == nil {
			err = f.Truncate(BigSparse) // 1 GB that takes no disk
			f.Close()
		}
	case FifoLink:
		fifo := path + ".fifo"
		if err = syscall.Mkfifo(fifo, 0o600); err == nil {
			err = os.Symlink(fifo, path)
		}
	default:
		t.Fatalf("no plant %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Unblocks reports whether f returns within wait (generous: the machine
// may be loaded). When it does not, the paths planted are opened for
// writing and closed, which ends an open blocked on a fifo there (or on the
// fifo a FifoLink names), so the test fails rather than hangs.
func Unblocks(wait time.Duration, f func(), planted ...string) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-time.After(wait):
	}
	for release := time.Now().Add(wait); time.Now().Before(release); {
		for _, p := range planted {
			for _, fifo := range []string{p, p + ".fifo"} {
				if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
			}
		}
		select {
		case <-done:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}
