package rollout

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzReader: whatever a rollout holds (a model chose much of it), the
// reader never panics, reading it in pieces as Codex appends them, with
// the cursor saved and restored between pieces as hooks do, derives what
// one read of the whole file does, and no cursor is larger than its bounds
// allow.
func FuzzReader(f *testing.F) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data), uint8(97))
	f.Add(`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":-5,"cached_input_tokens":9}}}}`+"\n{not json\n", uint8(3))
	f.Add(`{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"c","changes":{"rel/p":{"type":"add"},"":{"type":"update","move_path":"/x"}}}}}`+"\n", uint8(1))
	f.Add(`{"type":"response_item","payload":{"type":"function_call","name":"mcp__s__t","call_id":null}}`+"\n", uint8(5))
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
		var cursor []byte
		step := int(cut)%64 + 1
		for i := 0; i < len(data); i += step {
			fh, err := os.OpenFile(parts, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			fh.WriteString(data[i:min(i+step, len(data))])
			fh.Close()
			r := NewReader(parts)
			if cursor != nil {
				if r, err = RestoreReader(parts, cursor); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Update(); err != nil {
				t.Fatal(err)
			}
			if cursor, err = r.MarshalCursor(); err != nil {
				t.Fatal(err)
			}
		}
		if len(data) == 0 {
			return
		}
		r, err := RestoreReader(parts, cursor)
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
