package chat

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzReader: whatever a record holds (a model chose much of it), the
// reader never panics, reading it in pieces as Gemini CLI appends them,
// with the cursor saved and restored between pieces as hooks do, derives
// what one read of the whole file does, and every cursor it saves is one
// it takes back.
func FuzzReader(f *testing.F) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data), uint8(97))
	f.Add(`{"id":"m","type":"gemini","tokens":{"input":-5,"cached":9}}`+"\n"+`{"id":"m","type":"gemini","tokens":null}`+"\n{not json\n", uint8(3))
	f.Add(`{"id":"m","type":"gemini","toolCalls":[{"id":"c","name":"write_file","status":"success","resultDisplay":{"filePath":"rel/p","isNewFile":true}},{"id":"c","name":"x","resultDisplay":7}]}`+"\n", uint8(1))
	f.Add(`{"$set":{"sessionId":"s","messages":[{"id":"m"}]}}`+"\n"+`{"$rewindTo":"m"}`+"\n"+`{"sessionId":"s2","projectHash":"h"}`+"\n", uint8(5))
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
			appendTo(t, parts, []byte(data[i:min(i+step, len(data))]))
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
