package status

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// showKeys are the members a status line's preset decodes (render's).
var showKeys = []string{"state", "attention", "model", "thinking", "context", "usage", "rateLimits"}

// shown is what of s the members showKeys name decode into.
func shown(s *Status) []any {
	return []any{s.State, s.Attention, s.Model, s.Thinking, s.Context, s.Usage, s.RateLimits}
}

func TestDecodeMembersAsDecode(t *testing.T) {
	full, err := Encode(realistic("s", 1, "t1", 50))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		string(full),
		`{"schema":1,"STATE":"busy","Model":{"id":"m"}}`,                     // any case, as encoding/json
		`{"schema":1,"ſtate":"busy","thinKing":"high"}`,                      // ſ folds onto s
		`{"schema":1,"st\u0061te":"idle"}`,                                   // an escaped key
		`{"schema":1,"context":{"percent":5},"context":{"tokens":7}}`,        // a duplicate decodes over
		`{"schema":1,"state":"busy","state":"idle","outputs":[]}`,            // the last one wins
		`{"schema":1,"usage":{"cost":0.5},"x":{"y":[1,{"state":"nested"}]}}`, // a nested key is not a member
	} {
		want, err := Decode([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		got, err := DecodeMembers([]byte(doc), showKeys)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !reflect.DeepEqual(shown(got), shown(want)) {
			t.Errorf("%.60s: members %+v, whole %+v", doc, shown(got), shown(want))
		}
		if len(got.Outputs) != 0 || got.Schema != 0 {
			t.Errorf("%.60s: decoded a member not asked for: %+v", doc, got)
		}
	}
	// a member's type is checked when it is asked for, and said as Decode says it
	if _, err := DecodeMembers([]byte(`{"state":1}`), showKeys); err == nil || !strings.Contains(err.Error(), "field state") {
		t.Errorf("a number as state: %v", err)
	}
	if _, err := DecodeMembers([]byte(`{"state":"busy","outputs":7}`), showKeys); err != nil {
		t.Errorf("a bad member not asked for: %v", err)
	}
	for _, bad := range []string{`[{"state":"busy"}]`, `null`, `{"state":"busy"`, `{"state":"busy"} {}`} {
		if _, err := DecodeMembers([]byte(bad), showKeys); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}

// TestDecodeMembersOverHead: laid over a head (as a status line's lookup
// does), the members decoded without reflection and the head beside them
// are what json.Unmarshal of the same members over the head gives, for
// keys that name a head's field too (which take the reflection path).
func TestDecodeMembersOverHead(t *testing.T) {
	st := realistic("s", 1, "t1", 50)
	st.Schema = Schema
	data, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	h, err := headOf(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, keys := range [][]string{showKeys, {"state", "outputs", "calls", "tools", "ticket"}, {"state", "terminals", "updatedAt"}} {
		got := h.Status()
		if err := decodeMembers(data, got, keys); err != nil {
			t.Fatal(err)
		}
		picked, _, _ := pickMembers(data, keys)
		want := h.Status()
		if err := json.Unmarshal(picked, want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: fast %+v, reflection %+v", keys, got, want)
		}
	}
}

// Whatever the file holds, a status it decodes whole decodes by its
// members to the same shown fields.
func FuzzDecodeMembers(f *testing.F) {
	full, err := Encode(realistic("s", 1, "t1", 5))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add([]byte(`{"schema":1,"ſtate":"busy","context":{"percent":5},"CONTEXT":{"tokens":7},"\u0075sage":{"cost":1}}`))
	f.Add([]byte(`{"state":"idle","attention":{"kind":"question"},"rateLimits":{"weekly":{"usedPercent":3}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := Decode(data)
		if err != nil || !isObject(data) {
			return
		}
		got, err := DecodeMembers(data, showKeys)
		if err != nil {
			t.Fatalf("%q: decoded whole, not by its members: %v", data, err)
		}
		if !reflect.DeepEqual(shown(got), shown(want)) {
			t.Fatalf("%q: members %+v, whole %+v", data, shown(got), shown(want))
		}
	})
}
