package status

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, string(data))
	}
	data, err := Encode(realistic("s", 1, "t1", 50))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, string(data), string(data[:len(data)/2]))
	for _, c := range cases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%.60q) = %v, json.Valid says %v", c, got, want)
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
	})
}
