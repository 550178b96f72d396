package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"jig/status"
)

// FuzzReader: whatever a transcript holds (a model chose much of it), the
// reader never panics, derives only what a status file takes, and reading it in pieces, each from the cursor the
// last piece saved (as one hook after another does), derives what one read
// of the whole file does.
func FuzzReader(f *testing.F) {
	if data, err := os.ReadFile(fixture); err == nil {
		f.Add(string(data), uint8(7))
	}
	f.Add(`{"type":"assistant","usageMetadata":{"promptTokenCount":-5,"cachedContentTokenCount":9}}`+"\n{not json\n", uint8(3))
	f.Add(`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":null}}]},"toolCallResult":{"status":7}}`+"\n", uint8(1))
	f.Fuzz(func(t *testing.T, data string, cut uint8) {
		dir := t.TempDir()
		whole := filepath.Join(dir, "whole.jsonl")
		if err := os.WriteFile(whole, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		one := NewReader(whole)
		if err := one.Update(); err != nil {
			t.Fatal(err)
		}
		want := one.Derive(nil)
		for _, o := range want.Outputs {
			if !status.PlacedPath(o.Path) {
				t.Fatalf("output %q: the status file takes placed paths only", o.Path)
			}
		}
		for _, c := range want.Recent {
			if !status.IsLabel(c.Action) {
				t.Fatalf("action %q: a name from a fixed list, never a value", c.Action)
			}
		}

		parts := filepath.Join(dir, "parts.jsonl")
		var cur []byte
		// at most about 256 pieces: a large input read 8 bytes at a time
		// took seconds an execution, and the fuzzer takes a slow one for a hang
		step := max(int(cut)%64+1, len(data)/256)
		for i := 0; i < len(data); i += step {
			fh, err := os.OpenFile(parts, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			fh.WriteString(data[i:min(i+step, len(data))])
			fh.Close()
			r := NewReader(parts)
			if cur != nil {
				if r, err = RestoreReader(parts, cur); err != nil {
					t.Fatalf("its own cursor refused: %v", err)
				}
			}
			if err := r.Update(); err != nil {
				t.Fatal(err)
			}
			if cur, err = r.MarshalCursor(); err != nil {
				t.Fatal(err)
			}
		}
		if len(data) == 0 {
			return
		}
		r, err := RestoreReader(parts, cur)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Derive(nil)
		got.File = want.File // the two files' names
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read in pieces of %d:\n%+v\nin one read:\n%+v", step, got, want)
		}
	})
}
