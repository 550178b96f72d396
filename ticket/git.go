package ticket

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"jig/status"
)

// maxKey bounds a key, so it always fits the status file's name limit.
const maxKey = 64

// ValidKey reports whether k is a ticket key: a project's letters and a
// number (SHOP-142), `^[A-Z][A-Z0-9]+-[0-9]+$`. Matched by hand, as
// KeyOfBranch is: regexp's package init and tables cost every hook that
// links it (TestKeysAsRegexp holds both to the expressions).
func ValidKey(k string) bool { return len(k) <= maxKey && keyAt(k, 0) == len(k) }

// KeyOfBranch is the key a branch name holds, "" when none: the first key
// between non-alphanumerics (feature/SHOP-142-fix → SHOP-142), as
// `(?:^|[^A-Za-z0-9])([A-Z][A-Z0-9]+-[0-9]+)(?:$|[^0-9])` finds it.
func KeyOfBranch(branch string) string {
	for i := range len(branch) {
		if i > 0 && isAlnum(branch[i-1]) {
			continue
		}
		if end := keyAt(branch, i); end > 0 {
			if end-i > maxKey {
				return ""
			}
			return branch[i:end]
		}
	}
	return ""
}

// keyAt is the end of the key that starts at s[i], -1 when none does: an
// upper-case letter, more letters or digits, '-', digits, as many as there
// are (so what follows is no digit).
func keyAt(s string, i int) int {
	if i >= len(s) || !isUpper(s[i]) {
		return -1
	}
	j := i + 1
	for j < len(s) && (isUpper(s[j]) || isDigit(s[j])) {
		j++
	}
	if j == i+1 || j == len(s) || s[j] != '-' {
		return -1
	}
	k := j + 1
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j+1 {
		return -1
	}
	return k
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isUpper(c) || isDigit(c) || 'a' <= c && c <= 'z' }

// Head is what a work tree's HEAD says.
type Head struct {
	GitDir   string // the folder holding HEAD ("" when cwd is in no work tree)
	Branch   string // "" when detached
	Detached bool
}

// NoKey says why no source named a key for cwd, whose HEAD h is.
func (h Head) NoKey(cwd string) string {
	why := "no choice for " + cwd + " (jig ticket use KEY), and "
	switch {
	case h.GitDir == "":
		return why + "it is in no git work tree"
	case h.Detached:
		return why + "its git HEAD is detached"
	}
	return why + fmt.Sprintf("its branch %q names no key", h.Branch)
}

// maxHead bounds what is read of HEAD or a .git file: a ref is short.
const maxHead = 4096

// ReadHead finds the work tree holding cwd and reads its HEAD, without
// running git: a .git folder, or a .git file saying `gitdir: PATH` (a
// linked worktree or a submodule), in cwd or a folder above it.
func ReadHead(cwd string) (Head, error) {
	for dir := filepath.Clean(cwd); ; {
		gitDir, err := gitDirAt(dir)
		if err != nil {
			return Head{}, err
		}
		if gitDir != "" {
			return readHeadFile(gitDir)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return Head{}, nil
		}
		dir = up
	}
}

// gitDirAt is the git dir of a work tree rooted at dir, "" when dir has
// no .git.
func gitDirAt(dir string) (string, error) {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil && os.IsNotExist(err):
		return "", nil
	case err != nil:
		return "", err
	case fi.IsDir():
		return dotGit, nil
	}
	data, err := readSmall(dotGit)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", errors.New(dotGit + ": not a gitdir: file")
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return filepath.Clean(target), nil
}

func readHeadFile(gitDir string) (Head, error) {
	data, err := readSmall(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return Head{GitDir: gitDir}, err
	}
	head := strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		return Head{GitDir: gitDir, Branch: strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")}, nil
	}
	return Head{GitDir: gitDir, Detached: true}, nil
}

// readSmall reads a .git file or HEAD: a ref is short, and a fifo or a
// device a repository planted there must not block nor flood the writer.
func readSmall(path string) ([]byte, error) {
	data, err := status.ReadFile(path, status.FollowLinks, maxHead)
	if err != nil {
		return nil, status.FileError(path, err)
	}
	return data, nil
}
