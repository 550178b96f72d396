package ticket

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"jig/status"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigPrecedence(t *testing.T) {
	root := t.TempDir()
	home, cwd, agent := filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "agent")
	write(t, filepath.Join(home, ".config", "jig", "config.json"),
		`{"memory":{"dir":"~/memory"},"workflow":{"dir":"flows"},"jira":{"site":"https://jig.example/"}}`)
	write(t, filepath.Join(agent, "settings.json"), `{"theme":"dark","jig":{"memory":{"dir":"/agent-memory"},"jira":{"site":"https://agent.example"}}}`)
	write(t, filepath.Join(cwd, ".pi", "settings.json"), `{"jig":{"jira":{"site":"https://project.example"}}}`)
	c := LoadConfig(envOf(map[string]string{"HOME": home}), cwd, agent)
	if err := c.Problems(); err != nil {
		t.Fatal(err)
	}
	jigFile := filepath.Join(home, ".config", "jig", "config.json")
	if c.MemoryDir == nil || c.MemoryDir.Value != filepath.Join(home, "memory") || c.MemoryDir.From != jigFile {
		t.Errorf("memory.dir %+v: want ~/memory from jig's file (over Pi's user settings)", c.MemoryDir)
	}
	if c.WorkflowDir == nil || c.WorkflowDir.Value != filepath.Join(home, ".config", "jig", "flows") {
		t.Errorf("workflow.dir %+v: want relative to the file that says it", c.WorkflowDir)
	}
	if c.JiraSite == nil || c.JiraSite.Value != "https://project.example" || c.JiraSite.From != filepath.Join(cwd, ".pi", "settings.json") {
		t.Errorf("jira.site %+v: want the project's", c.JiraSite)
	}

	// $JIG_CONFIG replaces jig's file; a value only Pi's user settings say counts.
	alt := filepath.Join(root, "alt.json")
	write(t, alt, `{"jira":{"site":"http://alt.example"}}`)
	c = LoadConfig(envOf(map[string]string{"HOME": home, "JIG_CONFIG": alt}), filepath.Join(root, "elsewhere"), agent)
	if c.MemoryDir == nil || c.MemoryDir.Value != "/agent-memory" || c.JiraSite.Value != "http://alt.example" || c.WorkflowDir != nil {
		t.Errorf("with JIG_CONFIG: %+v %+v %+v", c.MemoryDir, c.JiraSite, c.WorkflowDir)
	}
}

func TestConfigMalformed(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"not json":    `{"memory":`,
		"wrong type":  `{"memory":{"dir":7}}`,
		"bad site":    `{"jira":{"site":"acme.atlassian.net"}}`,
		"empty dir":   `{"workflow":{"dir":""}}`,
		"jig not obj": `[1]`,
	} {
		path := filepath.Join(root, strings.ReplaceAll(name, " ", "-")+".json")
		write(t, path, content)
		c := LoadConfig(envOf(map[string]string{"JIG_CONFIG": path}), "", "")
		if c.MemoryDir != nil || c.WorkflowDir != nil || c.JiraSite != nil {
			t.Errorf("%s: a value was taken from a refused file: %+v", name, c)
		}
		if errs := c.Problems(); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), path+": ") {
			t.Errorf("%s: problems %v, want one naming the file", name, errs)
		}
	}
	// Pi's settings without a jig key, or missing, say nothing and are no problem.
	agent := filepath.Join(root, "agent")
	write(t, filepath.Join(agent, "settings.json"), `{"theme":"dark"}`)
	c := LoadConfig(envOf(map[string]string{"HOME": filepath.Join(root, "nohome")}), filepath.Join(root, "p"), agent)
	if len(c.Problems()) != 0 || c.MemoryDir != nil || len(c.Files) != 3 || !c.Files[2].Found || c.Files[0].Found {
		t.Errorf("config %+v", c)
	}
}

func TestKeyOfBranch(t *testing.T) {
	for branch, want := range map[string]string{
		"feature/SHOP-142-fix": "SHOP-142",
		"SHOP-142":             "SHOP-142",
		"bugfix/AB2-7":         "AB2-7",
		"main":                 "",
		"feature/shop-142":     "",
		"xSHOP-142":            "",
		"S-1":                  "",
		"feat/SHOP-142a":       "SHOP-142",
	} {
		if got := KeyOfBranch(branch); got != want {
			t.Errorf("KeyOfBranch(%q) = %q, want %q", branch, got, want)
		}
	}
}

func TestReadHead(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/feature/SHOP-142-fix\n")
	sub := filepath.Join(repo, "src", "deep")
	os.MkdirAll(sub, 0o700)
	if h, err := ReadHead(sub); err != nil || h.Branch != "feature/SHOP-142-fix" || h.Detached {
		t.Errorf("from a subfolder: %+v %v", h, err)
	}
	// A linked worktree: .git is a file naming its git dir, relative.
	wt := filepath.Join(root, "wt")
	write(t, filepath.Join(repo, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/SHOP-7\n")
	write(t, filepath.Join(wt, ".git"), "gitdir: ../repo/.git/worktrees/wt\n")
	if h, err := ReadHead(wt); err != nil || h.Branch != "SHOP-7" {
		t.Errorf("worktree: %+v %v", h, err)
	}
	// Detached.
	write(t, filepath.Join(repo, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	if h, err := ReadHead(repo); err != nil || !h.Detached || h.Branch != "" {
		t.Errorf("detached: %+v %v", h, err)
	}
	// No repo at all.
	if h, err := ReadHead(filepath.Join(root, "none")); err != nil || h.GitDir != "" {
		t.Errorf("no repo: %+v %v", h, err)
	}
	// A .git file that is not a gitdir: file is an error, not a guess.
	bad := filepath.Join(root, "bad")
	write(t, filepath.Join(bad, ".git"), "nonsense\n")
	if _, err := ReadHead(bad); err == nil {
		t.Error("a garbled .git file: no error")
	}
}

func TestFindKeyOrder(t *testing.T) {
	root := t.TempDir()
	state := &status.Dir{Root: filepath.Join(root, "state")}
	repo := filepath.Join(root, "repo")
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/feature/SHOP-1-x\n")
	sub := filepath.Join(repo, "sub")
	os.MkdirAll(sub, 0o700)

	src := Sources{State: state, CWD: sub}
	if k, errs := FindKey(src); k.Key != "SHOP-1" || k.From != FromBranch || errs != nil {
		t.Errorf("branch: %+v %v", k, errs)
	}
	if err := Use(state, repo, "SHOP-2"); err != nil {
		t.Fatal(err)
	}
	if k, _ := FindKey(src); k.Key != "SHOP-2" || k.From != FromChoice {
		t.Errorf("choice (made in a folder above): %+v", k)
	}
	fi, err := os.Stat(choicePath(state, repo))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("choice file: %v %v, want mode 0600", fi, err)
	}
	src.Event = "SHOP-3"
	if k, _ := FindKey(src); k.Key != "SHOP-3" || k.From != FromEvent {
		t.Errorf("event: %+v", k)
	}
	src.Event = "not a key"
	if k, _ := FindKey(src); k.Key != "SHOP-2" {
		t.Errorf("a bad event key must not count: %+v", k)
	}
	if err := Clear(state, repo); err != nil {
		t.Fatal(err)
	}
	if err := Clear(state, repo); err != nil {
		t.Errorf("clearing twice: %v", err)
	}
	if k, _ := FindKey(src); k.From != FromBranch {
		t.Errorf("after clear: %+v", k)
	}
	if err := Use(state, repo, "shop-1"); err == nil {
		t.Error("a key that is not one was taken")
	}
}

func TestReadFolder(t *testing.T) {
	root := t.TempDir()
	mem, flows := filepath.Join(root, "memory"), filepath.Join(root, "flows")
	folder := filepath.Join(mem, "SHOP-142")
	write(t, filepath.Join(folder, "ticket.json"), `{"title":"Fix the checkout","extra":1}`)
	write(t, filepath.Join(folder, "workflow.json"), `{"name":"feature","current":"review","since":"2026-05-01T10:00:00Z","prs":[{"number":12}]}`)
	write(t, filepath.Join(flows, "feature.json"), `{"stages":[{"name":"plan"},{"name":"build"},{"name":"review"}]}`)
	cfg := &Config{MemoryDir: &Setting{Value: mem}, WorkflowDir: &Setting{Value: flows}, JiraSite: &Setting{Value: "https://acme.example"}}
	f := Read(cfg, Key{Key: "SHOP-142", From: FromBranch}, nil)
	if f.Problems != nil {
		t.Fatal(f.Problems)
	}
	if *f.Ticket != (status.Ticket{Key: "SHOP-142", Title: "Fix the checkout", URL: "https://acme.example/browse/SHOP-142", From: FromBranch}) {
		t.Errorf("ticket %+v", f.Ticket)
	}
	w := f.Workflow
	if w == nil || w.Name != "feature" || !slices.Equal(w.Stages, []string{"plan", "build", "review"}) || w.Current != "review" ||
		w.Since != "2026-05-01T10:00:00Z" || len(w.PRs) != 1 || string(w.PRs[0]) != `{"number":12}` {
		t.Errorf("workflow %+v", w)
	}

	// A key with no folder: {key, url}.
	f = Read(cfg, Key{Key: "SHOP-9"}, nil)
	if *f.Ticket != (status.Ticket{Key: "SHOP-9", URL: "https://acme.example/browse/SHOP-9"}) || f.Workflow != nil || len(f.Outputs) != 0 {
		t.Errorf("no folder: %+v %+v %v", f.Ticket, f.Workflow, f.Outputs)
	}
	// No key: nothing.
	if f = Read(cfg, Key{}, nil); f.Ticket != nil || f.Workflow != nil {
		t.Errorf("no key: %+v", f)
	}
	// A garbled ticket.json is said; the ticket keeps key and url.
	write(t, filepath.Join(folder, "ticket.json"), `{"title":`)
	write(t, filepath.Join(folder, "workflow.json"), `{"name":"../../etc/passwd"}`)
	f = Read(cfg, Key{Key: "SHOP-142"}, nil)
	if len(f.Problems) != 2 || f.Ticket.Title != "" || f.Ticket.URL == "" || f.Workflow == nil || len(f.Workflow.Stages) != 0 {
		t.Errorf("garbled: %+v %+v %v", f.Ticket, f.Workflow, f.Problems)
	}
	// A ticket's own stages and url win.
	write(t, filepath.Join(folder, "ticket.json"), `{"url":"https://other.example/T"}`)
	write(t, filepath.Join(folder, "workflow.json"), `{"name":"feature","stages":["a","b"],"current":"a"}`)
	f = Read(cfg, Key{Key: "SHOP-142"}, nil)
	if f.Ticket.URL != "https://other.example/T" || !slices.Equal(f.Workflow.Stages, []string{"a", "b"}) || f.Workflow.PRs == nil {
		t.Errorf("own: %+v %+v", f.Ticket, f.Workflow)
	}
}

func TestOutputs(t *testing.T) {
	root := t.TempDir()
	folder := filepath.Join(root, "SHOP-1")
	outside := filepath.Join(root, "outside.md")
	write(t, outside, "secret")
	files := map[string]bool{ // path in the folder → listed
		"notes.md":                 true,
		"plan.txt":                 true,
		"report.json":              true,
		"ticket.json":              false,
		"workflow.json":            false,
		"image.png":                false,
		".hidden.md":               false,
		"history/old.md":           false,
		"plans/next.md":            true,
		"plans/next.png":           false,
		"plans/deeper/third.md":    false,
		"evidence/screen.png":      true,
		"evidence/run.log":         true,
		"evidence/tool-bash-1.txt": false,
		"evidence/deep/x.md":       false,
	}
	base := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	i := 0
	for p := range files {
		write(t, filepath.Join(folder, p), "x")
		os.Chtimes(filepath.Join(folder, p), base, base.Add(time.Duration(i)*time.Minute))
		i++
	}
	os.Symlink(outside, filepath.Join(folder, "leak.md"))                         // outside: not followed
	os.Symlink(filepath.Join(folder, "notes.md"), filepath.Join(folder, "in.md")) // inside: listed
	os.Symlink(root, filepath.Join(folder, "up"))                                 // a folder outside
	files["in.md"] = true
	repo := "/r"
	outs := Outputs(folder, func(string) *string { return &repo })
	var got []string
	for i, o := range outs {
		rel, _ := filepath.Rel(folder, o.Path)
		got = append(got, rel)
		if o.Action != status.Changed || o.Repo == nil || *o.Repo != "/r" || o.At.IsZero() {
			t.Errorf("output %+v", o)
		}
		if i > 0 && o.At.After(outs[i-1].At) {
			t.Errorf("not newest first: %v", outs)
		}
	}
	var want []string
	for p, listed := range files {
		if listed {
			want = append(want, p)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("outputs %v\nwant %v", got, want)
	}
	if data, _ := json.Marshal(outs); strings.Contains(string(data), "outside") {
		t.Errorf("a file outside the folder was listed: %s", data)
	}
}
