// Package testsrc is for tests whose result depends on files only a child
// process reads (go build, node, tmux, lua5.4): go test caches a result until
// a file the test binary itself consulted changes, so such a test stats those
// files first.
package testsrc

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
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

var (
	buildOnce sync.Once
	binDir    string
	jigBin    string
	buildErr  error
)

// Jig builds jig once for the test binary, with jig-fast and jig-line
// beside it (so what jig installs runs them, as it does for users), and
// returns jig's path. The files
// a child process reads (exts beyond Go's own) are consulted every call, so
// a change to them reruns the test. Main removes the binary at the end.
func Jig(tb testing.TB, exts ...string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	Consult(root, append([]string{".go", ".mod", ".sum"}, exts...)...)
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "jig-test-bin"); buildErr != nil {
			return
		}
		jigBin = filepath.Join(binDir, "jig")
		gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(gobin); err != nil {
			gobin = "go"
		}
		cmd := exec.Command(gobin, "build", "-o", binDir+string(filepath.Separator), "./cmd/jig", "./cmd/jig-fast", "./cmd/jig-line")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return jigBin
}

// Main runs a package's tests and then removes the jig Jig built.
func Main(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TempDirOutlived is a t.TempDir for an agent that may still write in it
// for a moment after the test killed it (a Node agent's last flush, its
// relaunched child, a tmux pane going down): it is removed again and again
// until nothing writes in it, within 10 s, before the test's own removal
// would fail on a folder that is not empty.
func TempDirOutlived(t testing.TB) string {
	dir := t.TempDir()
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); os.RemoveAll(dir) != nil && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
	})
	return dir
}
