// Package testsrc is for tests whose result depends on files only a child
// process reads (go build, node, tmux, lua5.4): go test caches a result until
// a file the test binary itself consulted changes, so such a test stats those
// files first.
package testsrc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Consult stats every file under root whose name ends in one of exts,
// skipping hidden folders, so go test sees them as inputs of the test.
func Consult(root string, exts ...string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		for _, ext := range exts {
			if strings.HasSuffix(p, ext) {
				os.Stat(p)
				break
			}
		}
		return nil
	})
}
