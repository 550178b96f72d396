package ticket

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// The hand-written matchers of a key, a key in a branch name and a
// workflow's name take what their regular expressions take.
var (
	keyForm      = regexp.MustCompile(`^[A-Z][A-Z0-9]+-[0-9]+$`)
	keyInBranch  = regexp.MustCompile(`(?:^|[^A-Za-z0-9])([A-Z][A-Z0-9]+-[0-9]+)(?:$|[^0-9])`)
	workflowForm = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)
)

func keysAsRegexp(t *testing.T, s string) {
	if got, want := ValidKey(s), len(s) <= maxKey && keyForm.MatchString(s); got != want {
		t.Errorf("ValidKey(%q) = %v, the expression %v", s, got, want)
	}
	want := ""
	if m := keyInBranch.FindStringSubmatch(s); m != nil && len(m[1]) <= maxKey {
		want = m[1]
	}
	if got := KeyOfBranch(s); got != want {
		t.Errorf("KeyOfBranch(%q) = %q, the expression %q", s, got, want)
	}
	if got, want := validWorkflowName(s), workflowForm.MatchString(s); got != want {
		t.Errorf("validWorkflowName(%q) = %v, the expression %v", s, got, want)
	}
}

var keySeeds = []string{"", "A", "AB-1", "A-1", "AB-", "ab-1", "SHOP-142", "feature/SHOP-142-fix", "xSHOP-1 AB-2",
	"AB-CD-12", "A1-2", "AB-12x", "AB-12.3", "-AB-1", "_AB-1", "AB1-2-3", "ÄB-1", "é/AB-1", ".hidden", "a.b-c_d",
	"_x", "-x", "x/y", strings.Repeat("A", 70) + "-1 AB-2", "AB-1\n", "\nAB-1"}

func TestKeysAsRegexp(t *testing.T) {
	for _, s := range keySeeds {
		keysAsRegexp(t, s)
	}
}

func FuzzKeysAsRegexp(f *testing.F) {
	for _, s := range keySeeds {
		f.Add(s)
	}
	f.Fuzz(keysAsRegexp)
}
