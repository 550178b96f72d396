package transcript

import (
	"errors"
	"path/filepath"
	"testing"

	"jig/status"
)

// Show reads a transcript whole; a file that names no session is bad input.
func TestShow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sid+".jsonl")
	write(t, path, fixture...)
	s, err := Show(path)
	if err != nil || s.Model == nil || len(s.Offered) == 0 || len(s.Skills) != 2 {
		t.Fatalf("%+v, %v: want the model, the tools offered and two skills", s, err)
	}
	other := filepath.Join(dir, "other.jsonl")
	write(t, other, `{"type":"summary","summary":"no session here"}`)
	if _, err := Show(other); !errors.Is(err, status.ErrBadInput) {
		t.Errorf("no session id: %v, want status.ErrBadInput", err)
	}
}
