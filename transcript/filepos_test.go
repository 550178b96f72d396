package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"jig/status"
)

// A FilePos notices a file rewritten before its offset or shortened, and
// not one appended to.
func TestFilePosSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	same := func(p FilePos) bool {
		f, size, dev, ino, err := OpenFollowed(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return p.Same(f, dev, ino, size)
	}
	write("{\"a\":1}\n{\"b\":2}\n")
	f, size, dev, ino, err := OpenFollowed(path)
	if err != nil {
		t.Fatal(err)
	}
	p := FilePos{Dev: dev, Ino: ino, Offset: size}
	if err := p.HashTail(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !p.Valid() || p.TailLen != int(size) {
		t.Fatalf("after HashTail: %+v", p)
	}
	if !same(p) {
		t.Error("unchanged file: not the same")
	}
	write("{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n")
	if !same(p) {
		t.Error("appended to: not the same")
	}
	write("{\"a\":1}\n{\"b\":3}\n{\"c\":3}\n")
	if same(p) {
		t.Error("rewritten before the offset: the same")
	}
	write("{\"a\":1}\n")
	if same(p) {
		t.Error("shortened: the same")
	}
}

func TestFilePosValid(t *testing.T) {
	for _, p := range []FilePos{
		{Offset: -1},
		{Offset: 10, TailLen: 0},
		{Offset: 10, TailLen: 11},
		{Offset: 1000, TailLen: posTail + 1},
		{Offset: 10, TailLen: -1},
	} {
		if p.Valid() {
			t.Errorf("%+v: valid", p)
		}
	}
	for _, p := range []FilePos{{}, {Offset: 10, TailLen: 10}, {Offset: 1000, TailLen: posTail}} {
		if !p.Valid() {
			t.Errorf("%+v: not valid", p)
		}
	}
}

func TestOpenFollowedFifo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, err := OpenFollowed(path); !errors.Is(err, status.ErrNotRegular) {
		t.Errorf("a fifo: %v, want %v", err, status.ErrNotRegular)
	}
}
