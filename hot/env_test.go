package hot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFastPath: what the installers write is the jig-fast beside the jig
// that runs them when it is a program there, else that jig.
func TestFastPath(t *testing.T) {
	for _, c := range []struct {
		what  string
		plant func(fast string)
		fast  bool
	}{
		{"no jig-fast", func(string) {}, false},
		{"a jig-fast", func(p string) { os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755) }, true},
		{"a jig-fast that is not executable", func(p string) { os.WriteFile(p, nil, 0o644) }, false},
		{"a folder named jig-fast", func(p string) { os.Mkdir(p, 0o755) }, false},
	} {
		dir := t.TempDir()
		jig := filepath.Join(dir, "jig")
		c.plant(filepath.Join(dir, FastName))
		got, err := FastPath(func(k string) string { return map[string]string{"JIG_BIN": jig}[k] })
		want := jig
		if c.fast {
			want = filepath.Join(dir, FastName)
		}
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", c.what, got, err, want)
		}
	}
}

// TestLinePath: what the installers write into a terminal's status line is
// the jig-line beside the jig that runs them, else what FastPath says.
func TestLinePath(t *testing.T) {
	exe := func(p string) { os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755) }
	for _, c := range []struct {
		what       string
		line, fast bool
		want       string
	}{
		{"neither", false, false, "jig"},
		{"jig-fast only", false, true, FastName},
		{"jig-line only", true, false, LineName},
		{"both", true, true, LineName},
	} {
		dir := t.TempDir()
		jig := filepath.Join(dir, "jig")
		if c.line {
			exe(filepath.Join(dir, LineName))
		}
		if c.fast {
			exe(filepath.Join(dir, FastName))
		}
		got, err := LinePath(func(k string) string { return map[string]string{"JIG_BIN": jig}[k] })
		if want := filepath.Join(dir, c.want); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", c.what, got, err, want)
		}
	}
}
