package transcript

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFifoDoesNotBlock: a named pipe where a session file goes is refused at
// once by every reader; opening it plainly waits for a writer forever, which
// would stall the bridge (and the tool calls Pi holds for its answer) or a
// listing of Pi's sessions.
func TestFifoDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() error{
		"Update":     func() error { return NewReader(path).Update() },
		"ReadHeader": func() error { _, err := ReadHeader(path); return err },
		"ReadInfo":   func() error { _, err := ReadInfo(path); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: a fifo read without error", name)
			}
		case <-time.After(10 * time.Second):
			// A writer ends the blocked open so the test can go on.
			if f, _ := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); f != nil {
				f.Close()
			}
			<-done
			t.Errorf("%s: blocked on a fifo", name)
		}
	}
}

// TestNotRegular: a fifo, a folder, a device or a socket where a session
// file goes is ErrNotRegular to every reader, named with its path.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo, sock := filepath.Join(dir, "fifo.jsonl"), filepath.Join(dir, "sock.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, path := range []string{fifo, dir, "/dev/zero", sock} {
		for name, read := range map[string]func() error{
			"Update":        func() error { return NewReader(path).Update() },
			"UpdateSession": func() error { return NewReader(path).UpdateSession() },
			"ReadHeader":    func() error { _, err := ReadHeader(path); return err },
		} {
			if err := read(); !errors.Is(err, ErrNotRegular) || err.Error() != path+": not a regular file" {
				t.Errorf("%s %s: %v, want %s: not a regular file", name, path, err, path)
			}
		}
	}
}
