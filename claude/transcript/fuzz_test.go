package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzReader: whatever a transcript holds (a model chose much of it), the
// reader never panics, and reading it in pieces, as Claude appends them,
// derives what one read of the whole file does.
func FuzzReader(f *testing.F) {
	f.Add(strings.Join(fixture, "\n")+"\n", uint8(7))
	f.Add(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":-5}}}`+"\n{not json\n", uint8(3))
	f.Add(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":null}]}}`+"\n", uint8(1))
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

		parts := filepath.Join(dir, "parts.jsonl")
		r := NewReader(parts)
		step := int(cut)%64 + 1
		for i := 0; i < len(data); i += step {
			fh, err := os.OpenFile(parts, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			fh.WriteString(data[i:min(i+step, len(data))])
			fh.Close()
			if err := r.Update(); err != nil {
				t.Fatal(err)
			}
		}
		if len(data) == 0 {
			return
		}
		got := r.Derive(nil)
		got.File = want.File // the two files' names
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read in pieces of %d:\n%+v\nin one read:\n%+v", step, got, want)
		}
	})
}
