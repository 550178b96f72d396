package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"jig/agents/peer"
	"jig/hot"
)

// ownCommands are the agents with commands of their own in cmd/jig,
// beside what their descriptor gives, and what they are. Any other agent
// is its folder and its line in registry/registry.go.
var ownCommands = map[string]string{
	"pi":     "jig pi's sessions, show, tree, fork and bridge; jig install pi (package install)",
	"claude": "jig claude statusline; jig install claude (package install)",
	"opencode": "jig opencode's sessions and show through opencode's own command line, by id; its bridge; " +
		"jig install opencode (package install)",
}

// TestAgentIsOneLine: an agent's package is imported by jig/registry's
// registry.go alone, and in cmd/jig by no file unless ownCommands says why;
// its commands come from its descriptor (agent.go).
func TestAgentIsOneLine(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, p := range imports(t, filepath.Join("..", "..", "registry", "registry.go")) {
		if f, ok := strings.CutPrefix(p, "jig/"); ok && !strings.HasPrefix(f, "agents") {
			registered[f] = true
		}
	}
	if len(registered) != len(peer.All()) {
		t.Fatalf("registry.go imports %v, registers %d agents", registered, len(peer.All()))
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, p := range imports(t, name) {
			folder, _, _ := strings.Cut(strings.TrimPrefix(p, "jig/"), "/")
			if registered[folder] && ownCommands[folder] == "" {
				t.Errorf("%s imports %s: an agent's commands come from its descriptor (peer.Agent), not a file in cmd/jig", name, p)
			}
		}
	}
	for _, a := range peer.All() {
		if a.Name == "" && ownCommands[a.ID] == "" {
			t.Errorf("agent %s has no command: give its descriptor a Name", a.ID)
		}
	}
}

func imports(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}

// Each top-level command is built under the name commands finds it by.
func TestTopCommandNames(t *testing.T) {
	for _, c := range topCommands(newEnv()) {
		if got := c.build().Name; got != c.name {
			t.Errorf("the command listed as %q is named %q", c.name, got)
		}
	}
}

// TestStatusLineIsJigs: an agent whose descriptor records a status line
// (peer.Agent.StatusLine) has `jig AGENT statusline` here, so the line
// jig-fast answers for it is one jig answers too.
func TestStatusLineIsJigs(t *testing.T) {
	for _, a := range peer.All() {
		if a.StatusLine == nil {
			continue
		}
		if extra, ok := extraCommands[a.Name]; !ok || extra(&env{Env: &hot.Env{}}).Name != "statusline" {
			t.Errorf("%s records a status line but jig has no `jig %s statusline`", a.ID, a.Name)
		}
	}
}
