package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A block is written once where place says, found as it is the second
// time, replaced where it stands by a variant, and removed leaving the
// user's lines byte for byte; the file's mode stays.
func TestBlockWriteReplaceRemove(t *testing.T) {
	file := filepath.Join(t.TempDir(), "host.conf")
	user := "a = 1\nb = 2" // no final newline: the block starts on a line of its own
	if err := os.WriteFile(file, []byte(user), 0o640); err != nil {
		t.Fatal(err)
	}
	b := Block{File: file, Comment: "#", Name: "host"}
	edit, err := b.Write("x = 1\n", AtEnd, "")
	if err != nil || edit.Change != Added || edit.File != file {
		t.Fatalf("first write: %+v, %v", edit, err)
	}
	// ...and the file still has no final newline
	want := user + "\n# jig install host: begin\nx = 1\n# jig install host: end"
	if got := readString(t, file); got != want {
		t.Fatalf("after the first write:\n%s\nwant:\n%s", got, want)
	}
	if edit, err := b.Write("x = 1\n", AtEnd, ""); err != nil || edit.Change != Unchanged {
		t.Fatalf("second write: %+v, %v", edit, err)
	}
	if edit, err := b.Write("x = 2\n", AtEnd, ""); err != nil || edit.Change != Updated || readString(t, file) != strings.Replace(want, "x = 1", "x = 2", 1) {
		t.Fatalf("a variant at the end: %+v, %v:\n%q", edit, err, readString(t, file))
	}
	if edit, lines, err := b.Remove(); err != nil || edit.Change != Removed || lines != "x = 2\n" || readString(t, file) != user {
		t.Fatalf("removed, the file is as it was byte for byte: %+v %q %v:\n%q", edit, lines, err, readString(t, file))
	}
	if _, err := b.Write("x = 1\n", AtEnd, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(want+"\nc = 3\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if edit, err := b.Write("x = 1\ny = 2\n", AtEnd, ""); err != nil || edit.Change != Updated {
		t.Fatalf("variant: %+v, %v", edit, err)
	}
	if got, want := readString(t, file), user+"\n# jig install host: begin\nx = 1\ny = 2\n# jig install host: end\nc = 3\n"; got != want {
		t.Fatalf("after the variant:\n%s\nwant:\n%s", got, want)
	}
	edit, lines, err := b.Remove()
	if err != nil || edit.Change != Removed || lines != "x = 1\ny = 2\n" || len(edit.Deleted) != 0 {
		t.Fatalf("remove: %+v, %q, %v", edit, lines, err)
	}
	if got, want := readString(t, file), user+"\nc = 3\n"; got != want {
		t.Fatalf("after remove:\n%q\nwant:\n%q", got, want)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640", fi.Mode(), err)
	}
	if edit, _, err := b.Remove(); err != nil || edit.Change != Unchanged {
		t.Fatalf("second remove: %+v, %v", edit, err)
	}
}

// A begin line that is part of another line, or has no end line, is no
// block.
func TestBlockFindWholeLines(t *testing.T) {
	b := Block{Comment: "#", Name: "host"}
	for _, data := range []string{
		"x # jig install host: begin\n# jig install host: end\n",
		"# jig install host: begin\nx = 1\n",
		"# jig install other: begin\n# jig install other: end\n",
	} {
		if i, j, ok := b.Find([]byte(data)); ok {
			t.Errorf("%q: found [%d, %d)", data, i, j)
		}
	}
}

// A missing file is made from Fresh; once the block is out it is Fresh
// again and goes. The same text behind a link stays: the link's target is
// the user's file.
func TestBlockFreshFileGoes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sub", "host.lua")
	b := Block{File: file, Comment: "--", Name: "host", Fresh: "local c = {}\nreturn c\n"}
	if _, err := b.Write("x()\n", beforeReturn, "final `return`"); err != nil {
		t.Fatal(err)
	}
	if got, want := readString(t, file), "local c = {}\n-- jig install host: begin\nx()\n-- jig install host: end\nreturn c\n"; got != want {
		t.Fatalf("made:\n%s\nwant:\n%s", got, want)
	}
	edit, _, err := b.Remove()
	if err != nil || len(edit.Deleted) != 1 || edit.Deleted[0] != file {
		t.Fatalf("remove: %+v, %v", edit, err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file jig made is still there: %v", err)
	}

	target := filepath.Join(dir, "dotfiles.lua")
	link := filepath.Join(dir, "linked.lua")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(b.Fresh), 0o644); err != nil {
		t.Fatal(err)
	}
	lb := Block{File: link, Comment: "--", Name: "host", Fresh: b.Fresh}
	if edit, err := lb.Write("x()\n", beforeReturn, "final `return`"); err != nil || edit.File != target {
		t.Fatalf("write through the link: %+v, %v", edit, err)
	}
	if edit, _, err := lb.Remove(); err != nil || len(edit.Deleted) != 0 {
		t.Fatalf("remove through the link: %+v, %v", edit, err)
	}
	if got := readString(t, link); got != b.Fresh {
		t.Errorf("the linked file is %q, want %q", got, b.Fresh)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone or replaced: %v, %v", fi, err)
	}
}

// A config with no place for the lines is left alone, and the error
// carries the lines to add by hand.
func TestBlockNoPlace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "odd.lua")
	odd := "return {\n  x = 1,\n}\nprint 'after'\n"
	if err := os.WriteFile(file, []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Block{File: file, Comment: "--", Name: "host"}.Write("x()\n", beforeReturn, "final `return`")
	var np *NoPlaceError
	if !errors.As(err, &np) || np.Lines != "x()" || np.Want != "final `return`" {
		t.Fatalf("err %v, want a NoPlaceError", err)
	}
	if got := readString(t, file); got != odd {
		t.Errorf("the file changed: %q", got)
	}
}

// removeOwn removes only a regular file that starts with jig's head.
func TestRemoveOwn(t *testing.T) {
	dir := t.TempDir()
	mine, theirs, link := filepath.Join(dir, "mine"), filepath.Join(dir, "theirs"), filepath.Join(dir, "link")
	os.WriteFile(mine, []byte("# jig for host: x\n"), 0o644)
	os.WriteFile(theirs, []byte("# my own\n"), 0o644)
	os.Symlink(mine, link)
	for _, c := range []struct {
		path string
		gone bool
	}{{link, false}, {theirs, false}, {mine, true}, {filepath.Join(dir, "none"), false}} {
		gone, err := removeOwn(c.path, "# jig for host:")
		if err != nil || gone != c.gone {
			t.Errorf("%s: gone %v, %v; want %v", c.path, gone, err, c.gone)
		}
	}
	if _, err := os.Lstat(theirs); err != nil {
		t.Error(err)
	}
}
