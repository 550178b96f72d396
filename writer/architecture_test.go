package writer

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The import rules of docs/architecture.md, from `go list`: the writer
// stands on the contract and the pure rooms only, readers never reach it,
// and the agents' adapters get a status's terminals through it alone.
func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", "jig/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports, deps := map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		imports[f[0]], deps[f[0]] = strings.Fields(f[1]), strings.Fields(f[2])
	}
	jig := func(list []string) []string {
		var own []string
		for _, p := range list {
			if strings.HasPrefix(p, "jig/") {
				own = append(own, p)
			}
		}
		return own
	}
	only := func(pkg string, allowed ...string) {
		for _, p := range jig(imports[pkg]) {
			if !slices.Contains(allowed, p) {
				t.Errorf("%s imports %s; it may import only %v", pkg, p, allowed)
			}
		}
	}
	only("jig/writer", "jig/engine", "jig/status", "jig/terminal", "jig/ticket", "jig/transcript")
	only("jig/engine", "jig/status", "jig/transcript")
	for _, p := range imports["jig/engine"] {
		if p == "os" || p == "io/fs" || p == "os/exec" || p == "net" {
			t.Errorf("jig/engine imports %s: it stays pure (no I/O)", p)
		}
	}
	readers := []string{"jig/status", "jig/request", "jig/engine", "jig/render", "jig/terminal", "jig/transcript",
		"jig/ticket", "jig/panel", "jig/panel/follow", "jig/herdr", "jig/herdr/herdr1", "jig/scripts", "jig/claude/transcript", "jig/codex/rollout", "jig/pi", "jig/opencode"}
	for _, r := range readers {
		if _, ok := deps[r]; !ok {
			t.Errorf("%s: no such package (docs/architecture.md names it)", r)
		}
		if slices.Contains(deps[r], "jig/writer") {
			t.Errorf("%s depends on jig/writer: readers and the rooms below the writer never do", r)
		}
	}
	for _, adapter := range []string{"jig/pi/bridge", "jig/claude", "jig/codex", "jig/opencode/bridge", "jig/cmd/jig"} {
		if !slices.Contains(imports[adapter], "jig/writer") {
			t.Errorf("%s does not import jig/writer: every agent writes through it", adapter)
		}
	}
	for pkg, list := range imports {
		if pkg != "jig/cmd/jig" && slices.Contains(list, "jig/writer") && slices.Contains(list, "jig/terminal") {
			t.Errorf("%s imports jig/terminal beside jig/writer: only the writer sets a status's terminals", pkg)
		}
	}
}
