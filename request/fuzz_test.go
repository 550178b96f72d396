package request

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: any bytes give a request or a one-line *BadError, never a
// panic; a request that parses encodes and parses back to itself, and holds
// only names and ids a status file may show.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"schema":1,"id":"ctx-1","tools":{"bash":false},"skills":{"pdf-tools":false},"reload":true}`,
		`{"schema":1,"id":"b","covers":["a"],"extra":[1,{"x":null}]}`,
		`{"schema":2,"id":"a"}`, `{"id":"a"}`, `[]`, `null`, `"x"`, `{`, ``,
		`{"schema":1,"id":"a","tools":{"":true}}`, `{"schema":1e0,"id":"a","reload":null}`,
		"{\"schema\":1,\"id\":\"a\\u0000\"}", "\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			var bad *BadError
			if !errors.As(err, &bad) || r != nil {
				t.Fatalf("Parse = %+v, %v; want nil and a *BadError", r, err)
			}
			if strings.ContainsAny(bad.Error(), "\n\r") || (bad.ID != "" && checkID(bad.ID) != nil) {
				t.Fatalf("bad answer %q for id %q", bad.Error(), bad.ID)
			}
			return
		}
		if r.Schema != Schema || checkID(r.ID) != nil {
			t.Fatalf("parsed %+v", r)
		}
		for _, m := range []map[string]bool{r.Tools, r.Skills} {
			for name := range m {
				if CheckName(name) != nil {
					t.Fatalf("parsed a bad name %q", name)
				}
			}
		}
		enc, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(enc)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, r)
		}
	})
}
