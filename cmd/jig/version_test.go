package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"jig/internal/testsrc"
)

// A build from a checkout, as `go run ./cmd/jig` and `go install ./cmd/jig`
// make it where nothing turns VCS stamping off: Go 1.24+ stamps it with a
// pseudo-version, and jig version says (devel), as the README promises, with
// the checkout's revision. On a tagged commit Go stamps the tag, which stays.
func TestVersionOfACheckoutBuild(t *testing.T) {
	testsrc.Consult("../..", ".go", ".mod", ".sum")
	bin := filepath.Join(t.TempDir(), "jig")
	info := buildWithVCS(t, "../..", bin)
	if !strings.Contains(info, "\tvcs.revision=") {
		// A git worktree (its .git is a file, which Go does not look for)
		// or a tarball: the same files, committed to a repository of their own.
		info = buildWithVCS(t, checkoutOf(t, "../.."), bin)
	}
	stamped := regexp.MustCompile(`(?m)^\tmod\tjig\t(\S+)`).FindStringSubmatch(info)
	revision := regexp.MustCompile(`(?m)^\tbuild\tvcs\.revision=(\S+)`).FindStringSubmatch(info)
	if stamped == nil || revision == nil {
		t.Fatalf("go version -m shows no version or revision of jig:\n%s", info)
	}
	rev := revision[1][:12]
	want := regexp.QuoteMeta(stamped[1])
	if pseudo := regexp.MustCompile(`^v\d+\.\d+\.\d+-(\S+\.)?\d{14}-` + rev + `(\+dirty)?$`); pseudo.MatchString(stamped[1]) {
		want = `\(devel\)`
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	line := `^jig ` + want + ` \(revision ` + rev + `( with local changes)?, \d{4}-\d\d-\d\dT[\d:]+Z, go1\.[\d.]+\)\n$`
	if !regexp.MustCompile(line).Match(out) {
		t.Errorf("Go stamped %s; jig version printed %q, want %s", stamped[1], out, line)
	}
}

// buildWithVCS builds ./cmd/jig of the module in dir with VCS stamping on
// and returns what go version -m says of the binary.
func buildWithVCS(t *testing.T, dir, bin string) string {
	t.Helper()
	// -trimpath: a copy elsewhere shares the build cache with the last one.
	build := exec.Command("go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/jig")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(info)
}

// checkoutOf copies the files git sees in root (tracked, and new ones not
// ignored) into a fresh repository and commits them.
func checkoutOf(t *testing.T, root string) string {
	t.Helper()
	git := func(dir string, args ...string) []byte {
		cmd := exec.Command("git", append([]string{"-c", "user.name=jig test", "-c", "user.email=test@jig.invalid"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			if os.Getenv("CI") != "true" && dir == root {
				t.Skipf("SKIPPED: not a git checkout (git %s: %v), so jig version is NOT tested on a build from one", args[0], err)
			}
			t.Fatalf("git %s in %s: %v", strings.Join(args, " "), dir, err)
		}
		return out
	}
	dir := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(git(root, "ls-files", "-z", "-c", "-o", "--exclude-standard")), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(dir, "init", "-q")
	git(dir, "add", "-A")
	git(dir, "commit", "-q", "-m", "a checkout of jig")
	return dir
}
