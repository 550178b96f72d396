package hammer

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestFuzzSeedsKept: every input a fuzz target once failed on stays in its
// package's testdata/fuzz/<target>/, where each `go test ./...` runs it. A
// seed is only kept if it still runs: its folder names a target its package
// has, and the file is go's corpus format (a renamed target, or a file
// edited by hand, would be skipped in silence).
func TestFuzzSeedsKept(t *testing.T) {
	root := filepath.Join("..", "..")
	dirs, err := filepath.Glob(filepath.Join(root, "*", "testdata", "fuzz", "Fuzz*"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "*", "*", "testdata", "fuzz", "Fuzz*"))
	dirs = append(dirs, more...)
	if len(dirs) == 0 {
		t.Fatal("no seed kept: the inputs fuzzing found (claude FuzzSettings, cmd/jig FuzzNormalizeArgs) are gone")
	}
	for _, dir := range dirs {
		target := filepath.Base(dir)
		pkg := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
		if !hasTarget(t, pkg, target) {
			t.Errorf("%s: %s has no fuzz target %s: its seeds never run", dir, pkg, target)
		}
		seeds, _ := os.ReadDir(dir)
		for _, s := range seeds {
			data, err := os.ReadFile(filepath.Join(dir, s.Name()))
			if err != nil || !bytes.HasPrefix(data, []byte("go test fuzz v1\n")) {
				t.Errorf("%s/%s: not a go fuzz corpus file (%v)", dir, s.Name(), err)
			}
		}
	}
}

// hasTarget reports whether a test file of the package in dir declares the
// fuzz target.
func hasTarget(t *testing.T, dir, target string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	decl := regexp.MustCompile(`(?m)^func ` + target + `\(f \*testing\.F\)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if decl.Match(data) {
			return true
		}
	}
	return false
}
