package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Show says what the reader left out: a bad line, and a last line without
// its newline yet.
func TestShowWarnings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "2026-11-30T12-00-00-000Z_s1.jsonl")
	data := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-30T12:00:00.000Z","cwd":"/w"}` + "\n" +
		"not json\n" +
		`{"type":"model_change","id":"a1","parentId":null,"timestamp":"2026-11-30T12:00:01.000Z","provider":"p","modelId":"m"}`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	sh, err := Show(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sh.BadLines) != 1 || len(sh.Warnings) != 2 || !strings.Contains(sh.Warnings[0], ":2: skipped: ") ||
		!strings.Contains(sh.Warnings[1], "last line has no newline yet") {
		t.Errorf("bad lines %+v, warnings %q", sh.BadLines, sh.Warnings)
	}
	if sh.Header.ID != "s1" || sh.Lineage != nil {
		t.Errorf("header %+v lineage %+v", sh.Header, sh.Lineage)
	}
}
