package ticket

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/hammer"
)

// foreignSource is one file the ticket reading takes from a repository or a
// user's folders.
type foreignSource struct {
	name string
	path func(w *world) string
}

// world is a working folder on branch SHOP-1 with every source readable.
type world struct {
	root, home, cwd, agent, memory, flows string
	env                                   map[string]string
}

func newWorld(t *testing.T) *world {
	root := t.TempDir()
	w := &world{root: root, home: filepath.Join(root, "home"), cwd: filepath.Join(root, "repo"),
		agent: filepath.Join(root, "agent"), memory: filepath.Join(root, "memory"), flows: filepath.Join(root, "flows")}
	w.env = map[string]string{"HOME": w.home, "JIG_CONFIG": filepath.Join(root, "jig.json")}
	write(t, w.env["JIG_CONFIG"], `{"memory":{"dir":"`+w.memory+`"},"workflow":{"dir":"`+w.flows+`"}}`)
	write(t, filepath.Join(w.agent, "settings.json"), `{"jig":{}}`)
	write(t, filepath.Join(w.cwd, ".pi", "settings.json"), `{"jig":{"jira":{"site":"https://x.example"}}}`)
	write(t, filepath.Join(w.root, "gitdir", "HEAD"), "ref: refs/heads/feature/SHOP-1-x\n")
	write(t, filepath.Join(w.cwd, ".git"), "gitdir: "+filepath.Join(w.root, "gitdir")+"\n")
	write(t, filepath.Join(w.memory, "SHOP-1", TicketFile), `{"title":"T"}`)
	write(t, filepath.Join(w.memory, "SHOP-1", WorkflowFile), `{"name":"flow","current":"a"}`)
	write(t, filepath.Join(w.flows, "flow.json"), `{"stages":["a","b"]}`)
	return w
}

var foreignSources = []foreignSource{
	{".pi/settings.json", func(w *world) string { return filepath.Join(w.cwd, ".pi", "settings.json") }},
	{"jig's configuration", func(w *world) string { return w.env["JIG_CONFIG"] }},
	{"Pi's settings.json", func(w *world) string { return filepath.Join(w.agent, "settings.json") }},
	{".git", func(w *world) string { return filepath.Join(w.cwd, ".git") }},
	{"HEAD", func(w *world) string { return filepath.Join(w.root, "gitdir", "HEAD") }},
	{TicketFile, func(w *world) string { return filepath.Join(w.memory, "SHOP-1", TicketFile) }},
	{WorkflowFile, func(w *world) string { return filepath.Join(w.memory, "SHOP-1", WorkflowFile) }},
	{"a workflow definition", func(w *world) string { return filepath.Join(w.flows, "flow.json") }},
}

// TestResolveRefusesPlants: each file the reading takes from a repository
// or the user's folders, replaced by a fifo, a folder, a link to /dev/zero,
// a sparse 1 GB file or a link to a fifo, is refused at once: Resolve
// returns, names the file among its problems, and reads every other source
// as before. (Before, a fifo as .pi/settings.json, .git or HEAD blocked the
// open forever: the bridge never answered, no file was written.)
func TestResolveRefusesPlants(t *testing.T) {
	clean := newWorld(t)
	want := Resolve(envOf(clean.env), clean.agent, Sources{CWD: clean.cwd}, nil)
	if len(want.Problems) != 0 || want.Key.Key != "SHOP-1" || want.Workflow == nil || len(want.Workflow.Stages) != 2 {
		t.Fatalf("the clean world: %+v, problems %v", want, want.Problems)
	}
	for _, src := range foreignSources {
		for _, kind := range hammer.Plants {
			w := newWorld(t)
			path := src.path(w)
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			hammer.Plant(t, path, kind)
			var f *Found
			if !hammer.Unblocks(10*time.Second, func() { f = Resolve(envOf(w.env), w.agent, Sources{CWD: w.cwd}, nil) }, path) {
				t.Errorf("%s as %s: Resolve blocked", src.name, kind)
				continue
			}
			if kind == hammer.Folder && src.name == ".git" {
				// a .git folder is a git dir: one without HEAD is said so
				path = filepath.Join(path, "HEAD")
			}
			if !namesFile(f.Problems, path) {
				t.Errorf("%s as %s: problems %v, want one naming %s", src.name, kind, f.Problems, path)
			}
			if src.name != ".git" && src.name != "HEAD" && f.Key.Key != "SHOP-1" {
				t.Errorf("%s as %s: key %q, the branch still says SHOP-1", src.name, kind, f.Key.Key)
			}
		}
	}
}

// namesFile reports whether one of errs names path, once, at its start.
func namesFile(errs []error, path string) bool {
	for _, err := range errs {
		if msg := err.Error(); strings.HasPrefix(msg, path+": ") && strings.Count(msg, path) == 1 {
			return true
		}
	}
	return false
}

// The ticket folder listed in place of a folder is no folder: a fifo
// there lists nothing, at once.
func TestOutputsOfAFifo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "SHOP-1")
	hammer.Plant(t, path, hammer.Fifo)
	var got int
	if !hammer.Unblocks(10*time.Second, func() { got = len(Outputs(path, nil)) }, path) {
		t.Fatal("Outputs blocked on a fifo")
	}
	if got != 0 {
		t.Errorf("%d outputs from a fifo", got)
	}
}
