package status

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	base := `{"state":"idle","model":{"provider":"a","id":"m1","name":"M1"},"context":{"tokens":10,"window":100,"percent":10},"outputs":[{"path":"x"}],"ticket":{"key":"K-1"}}`
	for _, tc := range []struct{ patch, want string }{
		{``, base},
		{`{}`, base},
		// a value replaces; an object merges key by key
		{`{"state":"busy","context":{"tokens":20}}`,
			`{"state":"busy","model":{"provider":"a","id":"m1","name":"M1"},"context":{"tokens":20,"window":100,"percent":10},"outputs":[{"path":"x"}],"ticket":{"key":"K-1"}}`},
		// a list replaces whole; null clears
		{`{"outputs":[],"ticket":null}`,
			`{"state":"idle","model":{"provider":"a","id":"m1","name":"M1"},"context":{"tokens":10,"window":100,"percent":10},"outputs":[],"ticket":null}`},
		// big numbers keep their digits
		{`{"pid":9007199254740993}`,
			`{"pid":9007199254740993,"state":"idle","model":{"provider":"a","id":"m1","name":"M1"},"context":{"tokens":10,"window":100,"percent":10},"outputs":[{"path":"x"}],"ticket":{"key":"K-1"}}`},
	} {
		got, err := Merge([]byte(base), []byte(tc.patch))
		if err != nil {
			t.Fatalf("Merge(%s): %v", tc.patch, err)
		}
		if !sameJSON(t, got, []byte(tc.want)) {
			t.Errorf("Merge(%s) =\n%s\nwant\n%s", tc.patch, got, tc.want)
		}
	}
	if got, _ := Merge([]byte(base), []byte(`{"pid":9007199254740993}`)); !strings.Contains(string(got), "9007199254740993") {
		t.Errorf("big number lost digits: %s", got)
	}
	if got, err := Merge(nil, []byte(`{"state":"busy"}`)); err != nil || !sameJSON(t, got, []byte(`{"state":"busy"}`)) {
		t.Errorf("Merge over nothing: %s %v", got, err)
	}
	for patch, want := range map[string]string{
		`{"state":`:   "not JSON",
		`[1,2]`:       "not a JSON object",
		`"busy"`:      "not a JSON object",
		`{} {}`:       "more than one JSON value",
		`{"a":1} x`:   "more than one JSON value",
		"\xff\xfe{}":  "not JSON",
		`null`:        "not a JSON object",
		`{"a":1}garb`: "more than one JSON value",
	} {
		if _, err := Merge([]byte(base), []byte(patch)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Merge(%q): %v, want %q", patch, err, want)
		}
	}
}

func TestDecodeNamesTheField(t *testing.T) {
	_, err := Decode([]byte(`{"schema":1,"pid":"many"}`))
	if err == nil || !strings.Contains(err.Error(), "field pid") {
		t.Errorf("Decode: %v, want the field named", err)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// genericMerge is Merge as it was, over decoded values: the oracle that
// FuzzMergeAsGeneric holds the byte-keeping Merge to.
func genericMerge(base, patch []byte) (any, bool) {
	decode := func(data []byte) (map[string]any, bool) {
		var v any
		if len(bytes.TrimSpace(data)) == 0 {
			return map[string]any{}, true
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if dec.Decode(&v) != nil || dec.More() {
			return nil, false
		}
		m, ok := v.(map[string]any)
		return m, ok
	}
	var merge func(b, p map[string]any) map[string]any
	merge = func(b, p map[string]any) map[string]any {
		if b == nil {
			b = map[string]any{}
		}
		for k, pv := range p {
			po, pok := pv.(map[string]any)
			bo, bok := b[k].(map[string]any)
			if pok && bok {
				pv = merge(bo, po)
			}
			b[k] = pv
		}
		return b
	}
	b, ok := decode(base)
	p, pok := decode(patch)
	if !ok || !pok {
		return nil, false
	}
	return merge(b, p), true
}

func FuzzMergeAsGeneric(f *testing.F) {
	base := `{"state":"idle","model":{"provider":"a","id":"m1"},"context":{"tokens":10,"detail":{"a":1}},"outputs":[{"path":"x"}]}`
	for _, p := range []string{``, `{}`, `{"state":"busy","context":{"tokens":20,"detail":{"b":2}}}`, `{"outputs":[],"model":null}`,
		`{"model":"m"}`, `{"new":{"a":{"b":1}}}`, `{"a":1,"a":2}`, `[1]`, `{"state":`, `{} x`, "{\"s\":\"\xff<&>\"}"} {
		f.Add([]byte(base), []byte(p))
	}
	f.Fuzz(func(t *testing.T, base, patch []byte) {
		want, ok := genericMerge(base, patch)
		got, err := Merge(base, patch)
		if (err == nil) != ok {
			t.Fatalf("Merge(%q, %q): %v, the generic merge ok %v", base, patch, err, ok)
		}
		if err != nil {
			return
		}
		var g any
		if err := json.Unmarshal(got, &g); err != nil || !reflect.DeepEqual(g, want) {
			t.Fatalf("Merge(%q, %q) = %s (%v), the generic merge %v", base, patch, got, err, want)
		}
	})
}

func TestRestates(t *testing.T) {
	s, err := Decode([]byte(`{"schema":1,"session":"s1","state":"busy","thinking":null,"model":{"provider":"a","id":"m1","name":"M"},` +
		`"context":{"tokens":10,"window":100,"percent":null},"outputs":[{"path":"/x","action":"created","at":"2026-01-01T00:00:00Z","repo":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for patch, want := range map[string]bool{
		``: true, `{}`: true, `{"state":"busy"}`: true, `{"state":"busy","thinking":null}`: true,
		`{"model":{"id":"m1"}}`: true, `{"context":{"tokens":10}}`: true, `{"schema":1.0}`: false,
		`{"state":"idle"}`: false, `{"thinking":"high"}`: false, `{"model":{"id":"m2"}}`: false,
		`{"model":null}`: false, `{"context":{"tokens":11}}`: false, `{"unknown":1}`: false, `{"state":"busy"`: false,
		`{"outputs":[]}`: false, `[1]`: false, `null`: false, ` {"state":"busy"} `: true, `{"state":null}`: false, `{"context":{"tokens":null}}`: false, `{"context":{"percent":null},"state":"busy"}`: true,
	} {
		if got := Restates(s, []byte(patch)); got != want {
			t.Errorf("Restates(%s) = %v, want %v", patch, got, want)
		}
	}
}

// FuzzRestates holds Restates to what it claims: a patch it says restates
// a status, laid over it by Merge, gives back the same status.
func FuzzRestates(f *testing.F) {
	base := `{"schema":1,"session":"s1","state":"busy","model":{"provider":"a","id":"m1"},"context":{"tokens":10},"usage":{"input":5,"cost":0.5}}`
	for _, p := range []string{`{}`, `{"state":"busy"}`, `{"model":{"id":"m1"}}`, `{"usage":{"cost":0.50}}`, `{"context":{"tokens":1e1}}`,
		`{"usage":{"input":5,"cost":null}}`, `{"terminals":null}`, `{"state":"busy","state":"idle"}`} {
		f.Add([]byte(base), []byte(p))
	}
	f.Fuzz(func(t *testing.T, doc, patch []byte) {
		s, err := Decode(doc)
		if err != nil || !Restates(s, patch) {
			return
		}
		was, err := Encode(s)
		if err != nil {
			return
		}
		base, _ := json.Marshal(s)
		merged, err := Merge(base, patch)
		if err != nil {
			t.Fatalf("Restates took a patch Merge refuses: %v", err)
		}
		out, err := Decode(merged)
		if err != nil {
			t.Fatalf("Restates took a patch whose merge does not decode: %v", err)
		}
		if now, _ := Encode(out); !bytes.Equal(now, was) {
			t.Fatalf("Restates(%s) but the merge changed it:\n%s\n%s", patch, was, now)
		}
	})
}
