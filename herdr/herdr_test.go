// Package herdr holds jig's Herdr integrations: the Herdr.app mods (app/,
// JavaScript) and the Herdr 1 plugin (plugin/). This test runs the mods'
// tests with Node's built-in runner so `go test ./...` covers them.
package herdr

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestAppMods(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not on PATH: the Herdr.app mods' tests cannot run")
		}
		t.Skip("SKIPPED: node is not on PATH, so the Herdr.app mods (herdr/app) are NOT tested; install Node 20+")
	}
	files, err := filepath.Glob("app/test/*.test.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JS tests found under app/test (%v)", err)
	}
	cmd := exec.Command(node, append([]string{"--test", "--test-reporter=spec"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
