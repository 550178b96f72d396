package board

import (
	"encoding/json"
	"reflect"
	"testing"

	"jig/status"
)

// FuzzFieldsAgreeWithEncodingJSON: whatever the bytes, reading a row
// neither panics nor hangs. And any status jig could write (the bytes
// decoded as a status, then encoded as jig writes it) gives, read field by
// field, the row encoding/json gives of the same file without its outputs:
// every string, escape, number, null and empty list the fast path reads
// itself, it reads as encoding/json does.
func FuzzFieldsAgreeWithEncodingJSON(f *testing.F) {
	for _, s := range layoutStatuses() {
		s.Outputs = s.Outputs[:min(len(s.Outputs), 1)] // small seeds: each new input is minimised
		doc, err := status.Encode(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte("{\n  \"session\": \"s\\u00e9\\n\\\"x\\\"\",\n  \"recent\": [],\n  \"contextDetail\": {\n    \"tools\": null\n  }\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rowOf(data, nil)
		Slim(data)
		var s status.Status
		if json.Unmarshal(data, &s) != nil {
			return
		}
		s.Outputs = nil
		doc, err := status.Encode(&s)
		if err != nil {
			return
		}
		var fast, whole file
		if !decodeFields(doc, &fast) {
			t.Fatalf("jig's own layout not read field by field:\n%s", doc)
		}
		if err := json.Unmarshal(doc, &whole); err != nil {
			t.Fatal(err)
		}
		if got, want := rowFrom(fast, nil), rowFrom(whole, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("field by field %+v\nencoding/json %+v\nof\n%s", got, want, doc)
		}
		slim := Slim(doc)
		var fromSlim file
		if !decodeFields(slim, &fromSlim) || !reflect.DeepEqual(rowFrom(fromSlim, nil), rowFrom(whole, nil)) {
			t.Fatalf("the slim form gives another row:\n%s", slim)
		}
	})
}
