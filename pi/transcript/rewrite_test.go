package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewrittenInPlace: Pi migrates an old file by rewriting it in place
// (same inode, longer); a file may also shrink or be replaced. Each is read
// again from the start.
func TestRewrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(fixtureV1), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	eq(t, "v1 leaf", r.Derive(nil).Leaf, "00000003")

	// the same inode, rewritten longer: v3 with ids (what Pi's migration does)
	migrated := strings.Replace(fixtureV3Branch, `"id":"s-a"`, `"id":"s-d"`, 1)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(migrated)
	f.Close()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	eq(t, "after the rewrite", d.Leaf, "a12")
	eq(t, "entries", d.Entries, 12)
	eq(t, "version", d.Header.Version, 3)

	// shrunk
	os.WriteFile(path, []byte(strings.SplitAfterN(fixtureV3Branch, "\n", 4)[0]+strings.SplitAfterN(fixtureV3Branch, "\n", 4)[1]), 0o600)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	eq(t, "after shrinking", r.Derive(nil).Entries, 1)

	// replaced by another file under the same name
	other := filepath.Join(t.TempDir(), "o.jsonl")
	os.WriteFile(other, []byte(fixture1x), 0o600)
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	eq(t, "after replacing", r.Derive(nil).Leaf, "b9")
}

// TestRestoredCursorBranches: a cursor holds only the leaf's state; when Pi
// then appends to an older entry (after /tree), the file is read again and
// the branch is right.
func TestRestoredCursorBranches(t *testing.T) {
	lines := strings.SplitAfter(fixtureV3Branch, "\n")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines[:7], "")), 0o600) // up to a6, the branch to abandon
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	eq(t, "thinking on the first branch", r.Derive(nil).Thinking, "high")
	saved, _ := r.MarshalCursor()
	r, err := RestoreReader(path, saved)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Join(lines[7:], "")) // a7's parent is a4
	f.Close()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	eq(t, "thinking back on the main branch", d.Thinking, "low")
	eq(t, "context", *d.ContextTokens, int64(115))
}

// TestBadCursor: a cursor that does not fit is refused (the caller then
// reads the file afresh), never trusted into a crash.
func TestBadCursor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(fixture1x), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	good, _ := r.MarshalCursor()
	for name, data := range map[string]string{
		"not JSON":     "{",
		"other format": strings.Replace(string(good), fmt.Sprintf(`"format":%d`, cursorFormat), `"format":9`, 1),
		"huge header":  strings.Replace(string(good), `"headLen":`, `"headLen":99999999999`, 1),
		"other file":   strings.Replace(string(good), path, "/elsewhere", 1),
	} {
		if _, err := RestoreReader(path, []byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := RestoreReader(path, good); err != nil {
		t.Errorf("good cursor: %v", err)
	}
}
