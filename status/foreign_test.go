package status

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/hammer"
)

// TestOpenFileRefusesPlants: whatever stands where a file goes — a fifo, a
// folder, /dev/zero, a sparse 1 GB file, a link to a fifo, a socket — the
// open returns at once (a plain open of a fifo waits for a writer forever)
// with an error naming the path, and nothing is read.
func TestOpenFileRefusesPlants(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cases := map[string]string{sock: "not a regular file"}
	for i, kind := range hammer.Plants {
		path := filepath.Join(dir, strings.Repeat("p", i+1))
		hammer.Plant(t, path, kind)
		cases[path] = map[string]string{hammer.Sparse: "larger than 4096 bytes"}[kind]
		if cases[path] == "" {
			cases[path] = "not a regular file"
		}
	}
	for path, says := range cases {
		for _, links := range []Links{FollowLinks, NoLinks} {
			var err error
			if !hammer.Unblocks(5*time.Second, func() { _, err = ReadFile(path, links, 4096) }, path) {
				t.Errorf("ReadFile(%s, follow %v) blocked", path, links)
				continue
			}
			fi, _ := os.Lstat(path)
			switch {
			case links == NoLinks && fi.Mode()&os.ModeSymlink != 0:
				if !errors.Is(err, ErrSymlink) {
					t.Errorf("ReadFile(%s, NoLinks) = %v, want ErrSymlink", path, err)
				}
			case err == nil || !strings.Contains(err.Error(), path+": "+says):
				t.Errorf("ReadFile(%s, follow %v) = %v, want %q", path, links, err, path+": "+says)
			case says == "not a regular file" && !errors.Is(err, ErrNotRegular):
				t.Errorf("ReadFile(%s): %v is not ErrNotRegular", path, err)
			}
		}
	}
}

// A regular file is read whole up to its bound, through a link when asked;
// AnySize takes a file of any size.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path, link := filepath.Join(dir, "f"), filepath.Join(dir, "l")
	if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		links Links
		max   int64
	}{{path, NoLinks, 5}, {link, FollowLinks, 5}, {path, FollowLinks, AnySize}} {
		if data, err := ReadFile(tc.path, tc.links, tc.max); err != nil || string(data) != "hello" {
			t.Errorf("ReadFile(%s, %v, %d) = %q, %v", tc.path, tc.links, tc.max, data, err)
		}
	}
	if _, err := ReadFile(path, NoLinks, 4); err == nil || !strings.HasSuffix(err.Error(), path+": larger than 4 bytes") {
		t.Errorf("ReadFile over the bound: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), FollowLinks, 5); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want ErrNotExist", err)
	}
	if f, err := OpenDir(path); err == nil {
		f.Close()
		t.Error("OpenDir of a file succeeded")
	}
	fifo := filepath.Join(dir, "fifo")
	hammer.Plant(t, fifo, hammer.Fifo)
	if !hammer.Unblocks(5*time.Second, func() {
		if f, err := OpenDir(fifo); err == nil {
			f.Close()
			t.Error("OpenDir of a fifo succeeded")
		}
	}, fifo) {
		t.Error("OpenDir blocked on a fifo")
	}
}
