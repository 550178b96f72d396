package transcript

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// FuzzScan holds the scanner's fast paths to the plain decode: a line is
// taken exactly when encoding/json finds one valid object in it; a string
// is taken exactly when it is valid JSON, its text is what json.Unmarshal
// makes of it and its length JavaScript's (UTF-16 units, byte by byte);
// a short integer is what strconv.ParseFloat makes of it.
func FuzzScan(f *testing.F) {
	for _, seed := range []string{`{"type":"x"}`, ` {"a" : [ 1 , 2 ] } `, `{"a":"\ud83d\ude00 \" \\ \/"}`,
		`{"a":"tab` + "\t" + `here"}`, `{"a":-0}`, `{"a":1e5}`, `-123456789012345`, `1234567890123456`,
		"\u00e9\xf0\x9f\x98\x80 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3", `{"a":[[{}]]}`, `{"a":1}{"b":2}`} {
		f.Add([]byte(seed))
	}
	if data, err := os.ReadFile("testdata/handmade/broken-lines.jsonl"); err == nil {
		for _, ln := range bytes.Split(data, []byte("\n")) {
			f.Add(ln)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.Count(b, []byte("["))+bytes.Count(b, []byte("{")) > 1000 {
			t.Skip() // encoding/json stops at 10 000 levels; the scanner does not
		}
		var s scanner
		var l line
		trimmed := bytes.TrimLeft(b, " \t\r\n")
		want := json.Valid(b) && len(trimmed) > 0 && trimmed[0] == '{'
		if got := parseLine(&s, b, &l); got != want {
			t.Fatalf("line %q: taken %v, encoding/json %v", b, got, want)
		}

		q := append(append([]byte{'"'}, b...), '"')
		s.b, s.i = q, 0
		raw, adj, ok := s.str()
		ok = ok && s.i == len(q)
		var decoded string
		if valid := json.Unmarshal(q, &decoded) == nil; ok != valid {
			t.Fatalf("string %q: taken %v, encoding/json %v", q, ok, valid)
		}
		if ok && utf8.Valid(raw) {
			if got := text(raw, adj); got != decoded {
				t.Fatalf("string %q: text %q, encoding/json %q", q, got, decoded)
			}
			if got, want := utf16Len(raw, adj), len(utf16.Encode([]rune(decoded))); got != want {
				t.Fatalf("string %q: length %d, UTF-16 %d", q, got, want)
			}
		}
		want16 := 0
		for _, c := range b {
			want16 += units(c)
		}
		if got := utf16Len(b, 0); got != want16 {
			t.Fatalf("utf16Len(%q) = %d, byte by byte %d", b, got, want16)
		}

		if v, exact := exactInt(b); exact {
			p, perr := strconv.ParseFloat(string(b), 64)
			if perr != nil || math.Float64bits(v) != math.Float64bits(p) {
				t.Fatalf("exactInt(%q) = %v, ParseFloat %v (%v)", b, v, p, perr)
			}
		}
	})
}

// TestIDIndex holds the index to a plain map of id text to the newest
// node: short and long ids, an id written twice, a lookup before and after
// the short ids' map is built, ids added after it.
func TestIDIndex(t *testing.T) {
	ids := []string{"a1b2c3d4", "", "x", "a-long-id-of-many-bytes", "a1b2c3d4", "\x01", "12345678", "a-long-id-of-many-bytes", "z"}
	x := idIndex{long: map[string]int32{}}
	want := map[string]int32{}
	check := func(upTo int) {
		t.Helper()
		for _, id := range append(ids, "absent", "a1b2c3d", "a1b2c3d4\x00") {
			got, ok := x.get([]byte(id))
			w, wok := want[id]
			if ok != wok || got != w {
				t.Errorf("after %d: get(%q) = %d %v, want %d %v", upTo, id, got, ok, w, wok)
			}
		}
	}
	for i, id := range ids {
		x.add([]byte(id), int32(i))
		want[id] = int32(i)
		if i == 4 {
			check(i) // builds the map
		}
	}
	check(len(ids))
}
