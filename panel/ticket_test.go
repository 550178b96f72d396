package panel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/status"
	"jig/ticket"
	"jig/transcript"
)

// The Work view of a status whose ticket, workflow and ticket-folder
// outputs were read from real files by the writers' reader (ticket.Resolve):
// a configuration, a ticket folder, workflow definitions and a work tree on
// a branch naming the ticket. status_ticket.json is that status, its temp
// folder written as /home/ana/src so herdr/app's JS tests draw the same.
func TestTicketFromRealFiles(t *testing.T) {
	root := t.TempDir()
	shop := filepath.Join(root, "shop")
	files := []struct {
		path, content string
		age           time.Duration
	}{
		{"jig.json", `{"memory":{"dir":"memory"},"workflow":{"dir":"workflows"},"jira":{"site":"https://acme.example"}}`, 0},
		{"workflows/feature.json", `{"stages":[{"name":"plan"},{"name":"build"},{"name":"review"},{"name":"ship"}]}`, 0},
		{"memory/SHOP-142/ticket.json", `{"title":"Fix the login redirect loop"}`, time.Hour},
		{"memory/SHOP-142/workflow.json", `{"name":"feature","current":"review","since":"2026-11-29T18:50:00Z","prs":[{"number":88}]}`, time.Hour},
		{"memory/SHOP-142/notes.md", "notes", 40 * time.Second},
		{"memory/SHOP-142/plans/plan.md", "plan", 12 * time.Minute},
		{"memory/SHOP-142/evidence/redirects.png", "png", 5 * time.Minute},
		{"memory/SHOP-142/evidence/tool-bash-call_7.txt", "saved by Jig", time.Minute},
		{"memory/SHOP-142/history/2026-11-28.md", "yesterday", 2 * time.Hour},
		{"shop/.git/HEAD", "ref: refs/heads/feature/SHOP-142-redirect-loop\n", 0},
	}
	for _, f := range files {
		p := filepath.Join(root, f.path)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, now, now.Add(-f.age))
	}
	getenv := func(k string) string {
		if k == "JIG_CONFIG" {
			return filepath.Join(root, "jig.json")
		}
		return ""
	}
	found := ticket.Resolve(getenv, "", ticket.Sources{CWD: shop}, transcript.NewRepoFinder().Repo)
	if found.Problems != nil {
		t.Fatal(found.Problems)
	}
	term := "t7"
	s := &status.Status{Schema: status.Schema, Session: "0190a7c2-5b1e-7c3d-9f00-4a1b2c3d4e5f", PID: 4242, CWD: shop,
		Terminal: &term, State: status.Idle, Model: &status.Model{Provider: "anthropic", ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5"},
		StartedAt: now.Add(-time.Hour), UpdatedAt: now.Add(-2 * time.Second)}
	found.Apply(s)
	s.Normalize()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.ReplaceAll(string(data), root, "/home/ana/src") + "\n")
	fixture(t, "status_ticket.json", data)
	shown, err := status.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "work_ticket.txt", Lines(shown, now))
}

// fixture compares a generated status with its file (-update rewrites it).
func fixture(t *testing.T, name string, data []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(testdata+name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(testdata + name)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(data) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", name, data, want)
	}
}
