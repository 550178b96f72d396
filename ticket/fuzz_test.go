package ticket

import (
	"os"
	"path/filepath"
	"testing"

	"jig/status"
)

// FuzzFiles: whatever the files jig reads for the ticket hold (the Jig
// plugins' configuration, .git/HEAD, ticket.json, workflow.json and a
// workflow definition, any of them hand-edited or half-written), reading
// them never panics, and what is found passes into a status file every
// reader takes.
func FuzzFiles(f *testing.F) {
	f.Add([]byte(`{"memory":{"dir":"mem"},"workflow":{"dir":"flows"},"jira":{"site":"https://acme.example"}}`),
		[]byte("ref: refs/heads/feature/SHOP-142-fix\n"), []byte(`{"title":"Fix","url":"https://x/SHOP-142"}`),
		[]byte(`{"name":"feature","current":"build","prs":[{"n":1}]}`), []byte(`{"stages":[{"name":"plan"},"build"]}`))
	f.Add([]byte(`{"memory":{"dir":5}}`), []byte("0123456789abcdef0123456789abcdef01234567\n"), []byte(`[]`), []byte(`{"stages":null}`), []byte(`{`))
	f.Fuzz(func(t *testing.T, config, head, ticketJSON, workflowJSON, flowJSON []byte) {
		root := t.TempDir()
		project := filepath.Join(root, "p")
		folder := filepath.Join(root, "mem", "SHOP-142")
		for _, d := range []string{filepath.Join(project, ".git"), folder, filepath.Join(root, "flows")} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		for path, data := range map[string][]byte{
			filepath.Join(root, "config.json"):           config,
			filepath.Join(project, ".git", "HEAD"):       head,
			filepath.Join(folder, "ticket.json"):         ticketJSON,
			filepath.Join(folder, "workflow.json"):       workflowJSON,
			filepath.Join(root, "flows", "feature.json"): flowJSON,
		} {
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		getenv := func(k string) string {
			switch k {
			case "JIG_CONFIG":
				return filepath.Join(root, "config.json")
			case "HOME":
				return root
			}
			return ""
		}
		found := Resolve(getenv, filepath.Join(root, "agent"), Sources{CWD: project}, nil)
		s := &status.Status{Session: "s", PID: 1}
		found.Apply(s)
		s.Normalize()
		if err := s.Validate(); err != nil {
			t.Fatalf("found %+v: %v", found, err)
		}
	})
}
