package status

import (
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
