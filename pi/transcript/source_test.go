package transcript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"jig/status"
)

func TestSource(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "pi.jsonl")
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-30T12:00:00.000Z","cwd":"/w"}` + "\n"
	model := `{"type":"model_change","id":"a1","parentId":null,"timestamp":"2026-11-30T12:00:01.000Z","provider":"p","modelId":"m"}` + "\n"
	src := NewSource(path, home)
	if _, _, err := src.Derive(nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file yet: %v, want fs.ErrNotExist", err)
	}
	os.WriteFile(path, []byte(header), 0o600)
	d, cursor, err := src.Derive(nil)
	if err != nil || d.Header.CWD != "/w" || cursor == nil || d.File != path {
		t.Fatalf("header only: %+v, %q, %v", d, cursor, err)
	}
	d, next, err := src.Derive(cursor)
	if err != nil || next != nil || d.Header.ID != "s1" {
		t.Errorf("nothing new: next %q, err %v: want the saved cursor kept", next, err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(model)
	f.Close()
	d, next, err = src.Derive(cursor)
	if err != nil || next == nil || d.Model == nil || d.Model.ID != "m" {
		t.Errorf("appended: %+v, %q, %v: want the new model and a new cursor", d.Model, next, err)
	}
	if d, _, err := src.Derive([]byte(`{"format":99}`)); err != nil || d.Model == nil {
		t.Errorf("a foreign cursor: %v, %v: want it dropped and the file read whole", d, err)
	}
	os.WriteFile(path, []byte("not json\n"), 0o600)
	if _, _, err := src.Derive(nil); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("not a session: %v, want an error", err)
	}
}

// PiSession names the session by the id given, else by the file's header;
// a file that cannot say is bad input.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pi.jsonl")
	os.WriteFile(path, []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-30T12:00:00.000Z","cwd":"/w"}`+"\n"), 0o600)
	t.Chdir(dir)
	if abs, id, err := Session("pi.jsonl", ""); abs != path || id != "s1" || err != nil {
		t.Errorf("no id: %q %q %v, want the header's", abs, id, err)
	}
	if _, id, err := Session("missing.jsonl", "given"); id != "given" || err != nil {
		t.Errorf("an id given: %q %v, want it, the file unread", id, err)
	}
	for _, f := range []string{"missing.jsonl", dir} {
		if _, _, err := Session(f, ""); !errors.Is(err, status.ErrBadInput) {
			t.Errorf("%s: %v, want status.ErrBadInput", f, err)
		}
	}
}
