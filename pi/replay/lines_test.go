package replay

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"jig/pi/transcript"
)

// The shipped transcript, moved into a project and a time, still reads
// whole: every line an entry, none skipped, no trace of where or when it
// was recorded.
func TestDemoLinesMoveTheTranscript(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "project")
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	header, lines, err := Lines(project, now)
	if err != nil {
		t.Fatal(err)
	}
	if header.CWD != project || header.Timestamp != "2030-01-01T00:00:00Z" {
		t.Errorf("header cwd %q at %q", header.CWD, header.Timestamp)
	}
	var orig transcript.Header
	if err := jsonFirstLine(Recorded, &orig); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "s.jsonl")
	if err := os.WriteFile(file, append(bytes.Join(lines, []byte("\n")), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.Join(lines, nil), []byte(orig.CWD)) || bytes.Contains(bytes.Join(lines, nil), []byte(orig.Timestamp[:10])) {
		t.Errorf("the recorded folder or day is still in the moved transcript")
	}
	r := transcript.NewReader(file)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	if d.Entries != len(lines)-1 || d.Skipped != 0 {
		t.Errorf("%d entries, %d skipped; want %d and 0", d.Entries, d.Skipped, len(lines)-1)
	}
	for _, o := range d.Outputs {
		if filepath.Dir(o.Path) != project {
			t.Errorf("output %s outside the project", o.Path)
		}
		if o.At.Before(now) || o.At.After(now.Add(time.Minute)) {
			t.Errorf("output %s at %s, not just after %s", o.Path, o.At, now)
		}
	}
	if len(d.Outputs) != 2 || d.Model == nil || d.Model.ID != "mock-reasoner" || d.Thinking != "high" {
		t.Errorf("derived %+v", d)
	}
}

func jsonFirstLine(data []byte, v any) error {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return json.Unmarshal(line, v)
}
