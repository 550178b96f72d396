package status

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// validSeeds are the edges of JSON's grammar and of json.Valid's.
var validSeeds = []string{
	``, ` `, `{}`, ` {} `, `[]`, `{"a":1}`, `{"a" : [1, 2.5, -0, 1e3, 1E-3, 2e+7, true, false, null, "x"]}`,
	`{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`, `{} {}`, `{}x`,
	`01`, `-`, `-a`, `1.`, `.5`, `1e`, `1e+`, `+1`, `-01`, `0.0e0`, `truex`, `tru`, `nul`, `nulll`, `True`,
	`"\u00e9\n\t\"\\\/\b\f\r"`, `"\u00g0"`, `"\u12"`, `"\x"`, `"abc`, "\"a\x01\"", "\"a\x7f\xff\xfe\"", `"\`,
	"[\r\n\t1]", "[\v1]", `{"a":{"b":[{"c":{}}]}}`, `]`, `}`, `[}`, `{]`, `[[[]]`, `[[]]]`,
}

func TestValidJSONAsJSONValid(t *testing.T) {
	cases := append([]string{}, validSeeds...)
	for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		cases = append(cases, strings.Repeat("[", n)+strings.Repeat("]", n), strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n))
	}
	cases = append(cases, testdataFiles(t)...)
	data, err := Encode(realistic("s", 1, "t1", 50))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, string(data), string(data[:len(data)/2]))
	for _, c := range cases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%.60q) = %v, json.Valid says %v", c, got, want)
		}
		if err := membersAsWhole([]byte(c)); err != nil {
			t.Error(err)
		}
	}
}

// membersAsWhole checks walkJSON's members against data: as valid as
// validJSON says, and for an object, its members put together again are
// the object data is.
func membersAsWhole(data []byte) error {
	var members [][]byte
	ok := walkJSON(data, func(key, value []byte) bool {
		members = append(members, append(append([]byte{}, key...), value...))
		return true
	})
	if ok != validJSON(data) {
		return fmt.Errorf("walkJSON(%.60q) = %v, validJSON %v", data, ok, !ok)
	}
	if !ok || !isObject(data) {
		return nil
	}
	again := "{" + string(bytes.Join(members, []byte(","))) + "}"
	var want, got any
	if json.Unmarshal(data, &want) != nil || json.Unmarshal([]byte(again), &got) != nil || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("the members of %.60q are %.60q", data, again)
	}
	return nil
}

// CutValue takes the value a json.Decoder takes off the same bytes.
func TestCutValueAsDecoder(t *testing.T) {
	for _, c := range append([]string{`{"a":1},{"b":2}`, ` [1] x`, `"s""t"`, `1 2`, `null,`}, validSeeds...) {
		value, rest, ok := CutValue([]byte(c))
		var raw json.RawMessage
		err := json.NewDecoder(strings.NewReader(c)).Decode(&raw)
		if ok != (err == nil) || ok && (string(value) != string(raw) || !strings.HasSuffix(c, string(rest))) {
			t.Errorf("CutValue(%q) = %q, %q, %v; a json.Decoder takes %q (%v)", c, value, rest, ok, raw, err)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", data, got, want)
		}
		if err := membersAsWhole(data); err != nil {
			t.Fatal(err)
		}
	})
}

// testdataFiles are the status files in testdata, as text: cases every
// reader of a status file must take as encoding/json does.
func testdataFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.json")
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// plainRun reads eight bytes at a time: every byte a string may hold, at
// every place in and around a stride, is read as json.Valid reads it.
func TestQuotedEveryPlace(t *testing.T) {
	for _, c := range []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x5c, 0x22, '"', '\\', '/', 0x7f, 0x80, 0x9f, 0xa0, 0xdc, 0xff} {
		for n := 0; n < 26; n++ {
			for at := 0; at < n; at++ {
				text := bytes.Repeat([]byte{'a'}, n)
				text[at] = c
				for _, doc := range [][]byte{append(append([]byte(`"`), text...), '"'), append(append([]byte(`["`), text...), `\n"]`...)} {
					if got, want := validJSON(doc), json.Valid(doc); got != want {
						t.Fatalf("validJSON(%q) = %v, json.Valid says %v", doc, got, want)
					}
				}
			}
		}
	}
}
