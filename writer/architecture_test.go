package writer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// policy is who may import whom among jig's packages, the rooms of
// docs/architecture.md, in the manner of Go's src/go/build/deps_test.go:
// "a, b < c" says c may import a and b, and whatever they may import. A
// name is a package under jig/; "x/..." is every package under x, and they
// may import each other; NONE is no package. AGENT is every package of an
// agent's folder, the top-level folders whose Agent registry/registry.go
// registers: an agent imports its own folder's packages and no other
// agent's. Every package must have a place here; an agent gets its place by
// its line in registry/registry.go, and no shared room may import it.
const policy = `
# The contract (the status file, its requests) and the list of agents.
NONE < status, agents, herdr, scripts;
status < request, terminal, transcript;

# The floor of every agent's transcript reader (transcript, above), the
# pure rooms (engine does no I/O, render cleans and lays out) and the
# ticket folder.
transcript < engine;
engine < ticket;
ticket < render;
render < render/jq; # --jq, on gojq: only cmd/jig imports it (TestGojqOnlyForJQ)
render < completion;
completion < cmdline;

# The writer: the contract and the pure rooms, nothing else.
engine, terminal, ticket < writer;

# The hook kit every hook-driven agent runs on, and its conformance suite.
request, writer < hook;
hook < hook/hooktest;

# What the agents' installers share: the one rule for editing a user's
# file, the merge of Claude-shaped settings.
status < configfile;
configfile < settingsjson;

# How a jig process ends (every program's), and the hot command lines jig,
# jig-fast and jig-line share: a status line's lookup (hot), and an agent's
# hook and its status line on the descriptors of agents/peer (hot/fast).
render, status < exit;
exit, herdr/herdr1, render, terminal < hot;
agents/peer, hook, hot < hot/fast;

# The readers: never the writer. serve/conversation is the neutral page
# of messages each agent reads its transcripts into.
render < panel;
agents, panel < herdr/herdr1;
herdr/herdr1, terminal < panel/follow;
agents, render, terminal < notify;
cmdline, panel, request, terminal < board;
status < serve/conversation;
board, serve/conversation < serve;

# What the command line knows of an agent (its commands and its page's
# reader, as data): the registry's entry, the floors it lists its sessions
# and reads its conversation on.
agents, serve/conversation, transcript < agents/peer;

# The agents, each on the shared rooms.
agents, agents/peer, configfile, hook, panel, request, serve/conversation, settingsjson, terminal, writer < AGENT;

# The tests' helpers: any shared room, each other, no agent.
board, cmdline, herdr, hook/hooktest, notify, panel/follow, scripts, serve < internal/...;

# jig install (which still holds Claude's and Pi's installers; a new agent
# keeps its own in its folder, as codex/install.go does) and the commands.
AGENT, herdr, herdr/herdr1, hot, scripts < install;

# The list of agents, and the three programs: jig; jig-fast, which links
# only the hot lines and the agents; jig-line, only a status line's lookup.
AGENT < registry;
hot/fast, registry < cmd/jig-fast;
hot < cmd/jig-line;
AGENT, board, cmdline, hot/fast, install, internal/..., notify, panel/follow, registry, serve < cmd/jig, bench/...;
render/jq < cmd/jig;
`

// rooms is a parsed policy: what each name may import directly.
type rooms struct {
	below    map[string][]string // name → the names it may import directly
	patterns []string            // the "x/..." names
	agents   map[string]bool     // the agents' folders
}

func parsePolicy(t *testing.T, text string, agentFolders map[string]bool) *rooms {
	r := &rooms{below: map[string][]string{}, agents: agentFolders}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	for _, rule := range strings.Split(strings.Join(lines, " "), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		var sets [][]string
		for _, side := range strings.Split(rule, "<") {
			var set []string
			for _, n := range strings.Split(side, ",") {
				n = strings.TrimSpace(n)
				if n == "" {
					t.Fatalf("policy: an empty name in %q", rule)
				}
				if strings.HasSuffix(n, "/...") && !slices.Contains(r.patterns, n) {
					r.patterns = append(r.patterns, n)
				}
				set = append(set, n)
			}
			sets = append(sets, set)
		}
		if len(sets) < 2 {
			t.Fatalf("policy: %q has no <", rule)
		}
		for i := 1; i < len(sets); i++ {
			for _, above := range sets[i] {
				for _, b := range sets[i-1] {
					if b != "NONE" {
						r.below[above] = append(r.below[above], b)
					}
				}
				if _, ok := r.below[above]; !ok {
					r.below[above] = nil
				}
			}
		}
	}
	return r
}

// names are the policy's names a package answers to: its own, the
// patterns that hold it, AGENT for an agent's.
func (r *rooms) names(pkg string) []string {
	var out []string
	if _, ok := r.below[pkg]; ok {
		out = append(out, pkg)
	}
	for _, p := range r.patterns {
		if dir := strings.TrimSuffix(p, "/..."); pkg == dir || strings.HasPrefix(pkg, dir+"/") {
			out = append(out, p)
		}
	}
	if r.agents[folder(pkg)] {
		out = append(out, "AGENT")
	}
	return out
}

// allowed reports whether pkg may import dep: dep answers to a name
// below one of pkg's, or shares pkg's pattern or agent folder. An agent's
// package answers to AGENT only, which nothing shared is above: only its
// own folder and the rooms above AGENT import it.
func (r *rooms) allowed(pkg, dep string) bool {
	if r.agents[folder(dep)] && folder(dep) == folder(pkg) {
		return true // an agent's own packages
	}
	mine := r.names(pkg)
	theirs := r.names(dep)
	for _, n := range theirs {
		if strings.HasSuffix(n, "/...") && slices.Contains(mine, n) {
			return true
		}
	}
	seen := map[string]bool{}
	var walk func(n string) bool
	walk = func(n string) bool {
		for _, b := range r.below[n] {
			if seen[b] {
				continue
			}
			seen[b] = true
			if slices.Contains(theirs, b) || walk(b) {
				return true
			}
		}
		return false
	}
	for _, n := range mine {
		if walk(n) {
			return true
		}
	}
	return false
}

// folder is a package's top-level folder: "pi" for pi/bridge.
func folder(pkg string) string {
	f, _, _ := strings.Cut(pkg, "/")
	return f
}

// registeredAgents are the folders of the packages whose Agent jig/registry
// registers, read from its source: in registry.go, one line each (a
// registration elsewhere there or in the programs counts, and is refused).
func registeredAgents(t *testing.T, root string) map[string]bool {
	dir := filepath.Join(root, "registry")
	var files []string
	for _, d := range []string{dir, filepath.Join(root, "cmd", "jig"), filepath.Join(root, "cmd", "jig-fast"), filepath.Join(root, "cmd", "jig-line")} {
		fs, err := filepath.Glob(filepath.Join(d, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	folders := map[string]bool{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, p := range registrations(t, file) {
			folders[folder(strings.TrimPrefix(p, "jig/"))] = true
			if file != filepath.Join(dir, "registry.go") {
				t.Errorf("%s registers %s's Agent: agents are registered in registry/registry.go, one line each", file, p)
			}
		}
	}
	if len(folders) == 0 {
		t.Fatalf("%s registers no agent", filepath.Join(dir, "registry.go"))
	}
	return folders
}

// registrations are the packages whose Agent file passes to
// MustRegister (peer.MustRegister).
func registrations(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatalf("the agent registry: %v", err)
	}
	byName := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		byName[name] = p
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn, ok := call.Fun.(*ast.SelectorExpr); !ok || fn.Sel.Name != "MustRegister" {
			return true
		}
		for _, arg := range call.Args {
			sel, ok := arg.(*ast.SelectorExpr)
			var pkg *ast.Ident
			if ok {
				pkg, ok = sel.X.(*ast.Ident)
			}
			if !ok || sel.Sel.Name != "Agent" {
				t.Errorf("%s: registers %T, want a package's Agent (pi.Agent)", file, arg)
				continue
			}
			p, ok := byName[pkg.Name]
			if !ok || !strings.HasPrefix(p, "jig/") {
				t.Errorf("%s: %s.Agent is no jig package's", file, pkg.Name)
				continue
			}
			out = append(out, p)
		}
		return true
	})
	return out
}

type listed struct {
	imports, testImports, deps []string
}

// listPackages is every package of the module, by go list: its jig
// imports (without jig/), its tests' and all its dependencies.
func listPackages(t *testing.T) (root string, pkgs map[string]listed) {
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}|{{join .Deps \" \"}}",
		"jig/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	mod, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	own := func(list string) []string {
		var o []string
		for _, p := range strings.Fields(list) {
			if rest, ok := strings.CutPrefix(p, "jig/"); ok && !slices.Contains(o, rest) {
				o = append(o, rest)
			}
		}
		return o
	}
	pkgs = map[string]listed{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		pkg := strings.TrimPrefix(f[0], "jig/")
		pkgs[pkg] = listed{imports: own(f[1]), testImports: own(f[2]), deps: strings.Fields(f[3])}
	}
	return strings.TrimSpace(string(mod)), pkgs
}

// TestImportPolicy holds every package to the policy: each has a place in
// it, imports only what its place allows, and no shared room, nor its
// tests, imports an agent.
func TestImportPolicy(t *testing.T) {
	root, pkgs := listPackages(t)
	agentFolders := registeredAgents(t, root)
	r := parsePolicy(t, policy, agentFolders)
	for name := range r.below {
		if r.agents[folder(name)] {
			t.Errorf("policy names %s, in %s/, which registry/registry.go registers as an agent: a shared room is no agent's folder", name, folder(name))
		}
	}
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	top := func(p string) bool { // the rooms above the agents
		return slices.Contains(r.names(p), "cmd/jig") || slices.Contains(r.names(p), "bench/...") ||
			p == "install" || p == "registry" || p == "cmd/jig-fast"
	}
	for _, p := range names {
		if len(r.names(p)) == 0 {
			t.Errorf("jig/%s has no place in the import policy (writer/architecture_test.go): put it in its room; "+
				"an agent's folder gets its place by its line in registry/registry.go", p)
			continue
		}
		for _, dep := range pkgs[p].imports {
			if !r.allowed(p, dep) {
				t.Errorf("jig/%s imports jig/%s, which the import policy does not allow (writer/architecture_test.go)", p, dep)
			}
		}
		if r.agents[folder(p)] || top(p) {
			continue
		}
		for _, dep := range pkgs[p].testImports {
			if r.agents[folder(dep)] || dep == "cmd/jig" {
				t.Errorf("jig/%s's tests import jig/%s: a shared room's tests know no agent (they register test descriptors in jig/agents)", p, dep)
			}
		}
	}
	for f := range agentFolders {
		writes := false
		for _, p := range names {
			if folder(p) == f && slices.Contains(pkgs[p].deps, "jig/writer") {
				writes = true
			}
		}
		if !writes {
			t.Errorf("agent %s/: no package of it depends on jig/writer; every agent writes through it", f)
		}
	}
}

// gojqLinkers are the only packages that may link gojq, whose package
// init (its table of builtins) costs every process that links it: --jq's
// and the program that takes it. The agents' hooks and status lines take
// no --jq and must not pay for it.
var gojqLinkers = []string{"cmd/jig", "render/jq"}

// TestGojqOnlyForJQ: every package that depends on gojq, directly or not,
// is one of gojqLinkers, and each of those does.
func TestGojqOnlyForJQ(t *testing.T) {
	const gojq = "github.com/itchyny/gojq"
	_, pkgs := listPackages(t)
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		switch links, may := slices.Contains(pkgs[p].deps, gojq), slices.Contains(gojqLinkers, p); {
		case links && !may:
			t.Errorf("jig/%s links %s: only %s may (--jq), for its init costs every process that links it", p, gojq, strings.Join(gojqLinkers, " and "))
		case may && !links:
			t.Errorf("jig/%s no longer links %s: update gojqLinkers", p, gojq)
		}
	}
}

// TestImportPolicyRules: the policy's own reading, on a small one.
func TestImportPolicyRules(t *testing.T) {
	r := parsePolicy(t, `NONE < a; a < b < c; b < x/...; x/..., AGENT < top;`, map[string]bool{"ag": true})
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"c", "a", true},         // through b
		{"a", "b", false},        // not upwards
		{"x/one", "x/two", true}, // fellow members of a pattern
		{"x/one", "a", true},
		{"x/one", "c", false},
		{"ag/sub", "ag", true}, // an agent's own folder
		{"ag/sub", "b", false}, // nothing below AGENT here
		{"top", "ag/sub", true},
		{"c", "ag", false},         // a shared room imports no agent
		{"other/sub", "ag", false}, // nor does another folder
	} {
		if got := r.allowed(c.pkg, c.dep); got != c.ok {
			t.Errorf("%s may import %s: %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
	if len(r.names("nowhere")) != 0 {
		t.Error("a package the policy does not name has a place")
	}
}

// The rules the import policy cannot say: engine does no I/O, and only the
// writer sets a status's terminals (an adapter never imports terminal
// beside the writer).
func TestPureAndTerminalRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "jig/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, list, _ := strings.Cut(line, "|")
		imports := strings.Fields(list)
		if pkg == "jig/engine" {
			for _, p := range imports {
				if p == "os" || p == "io/fs" || p == "os/exec" || p == "net" {
					t.Errorf("jig/engine imports %s: it stays pure (no I/O)", p)
				}
			}
		}
		if pkg != "jig/cmd/jig" && slices.Contains(imports, "jig/writer") && slices.Contains(imports, "jig/terminal") {
			t.Errorf("%s imports jig/terminal beside jig/writer: only the writer sets a status's terminals", pkg)
		}
	}
}
