package rollout

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"jig/status"
)

// Show reads a rollout whole; a file without session_meta is bad input.
func TestShow(t *testing.T) {
	s, err := Show(fixture)
	if err != nil || s.Header.ID == "" || s.Called == nil {
		t.Fatalf("%+v, %v: want the session and a list of tools called", s, err)
	}
	other := filepath.Join(t.TempDir(), "other.jsonl")
	os.WriteFile(other, []byte(`{"type":"event_msg","payload":{"type":"token_count"}}`+"\n"), 0o600)
	if _, err := Show(other); !errors.Is(err, status.ErrBadInput) {
		t.Errorf("no session_meta: %v, want status.ErrBadInput", err)
	}
}
