package status

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// filled is a status with every field set (fill), as Encode writes it.
func filled(t testing.TB) []byte {
	var s Status
	n := 0
	fill(reflect.ValueOf(&s).Elem(), &n)
	s.Workflow.PRs = []json.RawMessage{json.RawMessage(`{"n": [1, {"url": "u"}]}`), json.RawMessage(`7`)}
	data, err := Encode(&s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// asUnmarshal says how decodeFast differs from json.Unmarshal on data:
// "" when it declines it, or decodes it to what json.Unmarshal does.
func asUnmarshal(data []byte) string {
	var fast, want Status
	if !decodeFast(data, &fast) {
		return ""
	}
	if err := json.Unmarshal(data, &want); err != nil {
		return "decoded what json.Unmarshal refuses: " + err.Error()
	}
	if !reflect.DeepEqual(fast, want) {
		return "decoded to another status"
	}
	return ""
}

// decodeSeeds are documents at the edges of what decodeFast takes.
var decodeSeeds = []string{
	`{}`, ` { } `, `null`, `{"session":"s","pid":1}`, `{"session":"s"} x`, `{"session":"s"`, `[]`, `"s"`,
	`{"session":null,"terminal":null,"outputs":null,"terminals":[],"switches":{"tools":{},"skills":null}}`,
	`{"session":"a\u00e9\"b","cwd":"\u003c/w\u003e"}`, "{\"session\":\"a\xffb\"}", `{"switches":{"tools":{"a\u0062":true,"x":null,"x":false}}}`,
	`{"Session":"s"}`, `{"ſession":"s"}`, `{"sess\u0069on":"s"}`, `{"session":"a","session":"b"}`, `{"x":1}`,
	`{"context":{"tokens":1},"context":{"window":2}}`, `{"outputs":[{"path":"a"}],"outputs":[{"action":"b"}]}`,
	`{"pid":1.0}`, `{"pid":1e2}`, `{"pid":-0}`, `{"pid":9223372036854775808}`, `{"pid":"1"}`, `{"usage":{"cost":1e400}}`,
	`{"context":{"percent":-0.0}}`, `{"tools":{"active":true}}`, `{"lastRequest":{"ok":1}}`, `{"lastRequest":{"ok":null,"reload":null}}`,
	`{"startedAt":null,"stateSince":null}`, `{"startedAt":"2026-01-01T00:00:00+01:00"}`, `{"startedAt":"yesterday"}`,
	`{"startedAt":1}`, `{"stateSince":{}}`, `{"outputs":[null,{"at":null}]}`, `{"recent":[{"tool":"a"},]}`,
	`{"workflow":{"prs":[ {"a" : [ 1 ] } , null, "x", 2 ],"stages":[null,"b"]}}`, `{"workflow":{"prs":[{]}}`,
	`{"model":{"id":"m"},"attention":{"kind":"question","since":"2026-01-01T00:00:00Z"},"rateLimits":{"weekly":{"usedPercent":3,"resetsAt":null}}}`,
	`{"contextDetail":{"parts":[{"name":"a","tokens":1}],"tools":[{"name":"t","off":true}],"skills":[],"files":null}}`,
}

func TestDecodeFastAsUnmarshal(t *testing.T) {
	full, err := Encode(realistic("s", 1, "t1", 50))
	if err != nil {
		t.Fatal(err)
	}
	compact, err := json.Marshal(realistic("s", 1, "t1", 3))
	if err != nil {
		t.Fatal(err)
	}
	empty, err := Encode(&Status{})
	if err != nil {
		t.Fatal(err)
	}
	// what jig writes, it takes: a field it does not know would be left
	// to reflection (or lost, were the fast path to skip it)
	for _, doc := range [][]byte{full, compact, empty, filled(t)} {
		var s Status
		if !decodeFast(doc, &s) {
			t.Errorf("%.80s: declined", doc)
		}
		if diff := asUnmarshal(doc); diff != "" {
			t.Errorf("%.80s: %s", doc, diff)
		}
	}
	cases := append([]string{}, decodeSeeds...)
	cases = append(cases, validSeeds...)
	cases = append(cases, testdataFiles(t)...)
	for _, n := range []int{maxDepth - 3, maxDepth - 2} { // the workflow, its prs and their list hold it
		cases = append(cases, `{"workflow":{"prs":[`+strings.Repeat("[", n)+strings.Repeat("]", n)+`]}}`)
	}
	cases = append(cases, string(full[:len(full)/2]))
	for _, c := range cases {
		if diff := asUnmarshal([]byte(c)); diff != "" {
			t.Errorf("%.80q: %s", c, diff)
		}
	}
	// Decode says a bad document's fault as before: by reflection
	if _, err := Decode([]byte(`{"pid":"1"}`)); err == nil || !strings.Contains(err.Error(), "field pid") {
		t.Errorf("a string as pid: %v", err)
	}
}

// addEncoded adds two files as Encode writes them to f's seeds, a
// realistic one (returned) and one with every field filled.
func addEncoded(f *testing.F) []byte {
	full, err := Encode(realistic("s", 1, "t1", 5))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add(filled(f))
	return full
}

// Whatever the file holds, decodeFast declines it or decodes it as
// json.Unmarshal does.
func FuzzDecodeFast(f *testing.F) {
	addEncoded(f)
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if diff := asUnmarshal(data); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}
