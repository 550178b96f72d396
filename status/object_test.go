package status

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// The shapes a hook's input and a cursor's head hold, as UnmarshalObject
// reads them: embedded structs (one of an unexported type), strings,
// integers that may overflow, a raw member, pointers, a type of its own
// UnmarshalJSON, and fields encoding/json does not read.
type (
	objPos struct {
		Dev   uint64 `json:"dev"`
		Small int8   `json:"small"`
	}
	objFile struct {
		objPos
		Name  string `json:"name,omitempty"`
		Ended bool   `json:"ended"`
	}
	objLevel struct{ Level string }
	objInput struct {
		objFile
		Session  string          `json:"session_id"`
		Raw      json.RawMessage `json:"tool_input"`
		Tokens   *int64          `json:"tokens"`
		Count    int             `json:"count"`
		Effort   *objLevel       `json:"effort"`
		Nested   *struct{ A []string }
		Untagged string
		Num      json.Number `json:"num"`
		At       time.Time   `json:"at"`
		Any      any         `json:"any"`
		Files    []objFile   `json:"files"`
		Dash     string      `json:"-"`
		hidden   string
	}
)

func (l *objLevel) UnmarshalJSON(data []byte) error {
	if json.Unmarshal(data, &l.Level) == nil {
		return nil
	}
	type plain objLevel
	return json.Unmarshal(data, (*plain)(l))
}

// asObject says how UnmarshalObject differs from json.Unmarshal on data
// ("" when it does not), and whether it read it member by member.
func asObject(data []byte) (string, bool) {
	var got, want objInput
	var s objInput
	byMembers := unmarshalMembers(data, reflect.ValueOf(&s).Elem())
	err, wantErr := UnmarshalObject(data, &got), json.Unmarshal(data, &want)
	switch {
	case (err == nil) != (wantErr == nil):
		return "error " + errString(err) + ", json.Unmarshal's " + errString(wantErr), byMembers
	case !reflect.DeepEqual(got, want):
		return "decoded to another value", byMembers
	case byMembers && !reflect.DeepEqual(s, want):
		return "read member by member to another value", byMembers
	}
	return "", byMembers
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

var objectSeeds = []string{
	`{"session_id":"s","tool_input":{"a": [1, 2]} ,"tokens":7,"count":-3,"effort":"high","dev":18446744073709551615,` +
		`"small":-128,"name":"n","ended":true,"Nested":{"A":["x"]},"Untagged":"u","num":1.5e3,"at":"2026-01-01T00:00:00Z","any":[1,"a"]}`,
	`{"effort":{"level":"low"},"tokens":null,"tool_input":null,"session_id":null,"files":[{"name":"a","dev":1}],"-":"x","hidden":"h"}`,
	`{"files":null,"any":null,"Nested":null,"effort":null,"tokens":null}`, `{}`, `null`, `[]`, `{"session_id":1}`, `{"count":1.5}`, `{"count":"1"}`, `{"small":128}`, `{"dev":-1}`, `{"ended":"yes"}`,
	`{"Session_ID":"s"}`, `{"session_id":"a","session_id":"b"}`, `{"ſmall":1}`, `{"session\u005fid":"s"}`, `{"x":1,"y":{"z":[]}}`,
	`{"session_id":"a\u00e9\"b"}`, "{\"session_id\":\"a\xffb\"}", `{"num":"1"}`, `{"num":"x"}`, `{"at":"noon"}`, `{"session_id":"s"} x`,
	`{"session_id":"s",}`, `{"untagged":"u"}`, `{"effort":7}`,
}

func TestUnmarshalObjectAsUnmarshal(t *testing.T) {
	for _, c := range append(objectSeeds, validSeeds...) {
		if diff, _ := asObject([]byte(c)); diff != "" {
			t.Errorf("%.80q: %s", c, diff)
		}
	}
	// the shapes above are read member by member, the whole of them
	if _, byMembers := asObject([]byte(objectSeeds[0])); !byMembers {
		t.Errorf("%.60s: not read member by member", objectSeeds[0])
	}
	// what needs encoding/json's own rules is left to it
	type twice struct {
		objPos
		Dev int `json:"dev"`
	}
	type quoted struct {
		N int `json:"n,string"`
	}
	type pointed struct{ *objPos }
	for _, v := range []any{&twice{}, &quoted{}, &pointed{}} {
		if _, ok := jsonFields(reflect.TypeOf(v).Elem(), nil, nil); ok {
			t.Errorf("%T: read member by member", v)
		}
	}
	// a struct not zero is decoded over, as by json.Unmarshal
	got, want := objInput{Session: "kept", Count: 2}, objInput{Session: "kept", Count: 2}
	data := []byte(`{"count":3}`)
	if err := UnmarshalObject(data, &got); err != nil || json.Unmarshal(data, &want) != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("over a struct not zero: %+v, json.Unmarshal %+v (%v)", got, want, err)
	}
}

// Whatever the input, UnmarshalObject decodes it as json.Unmarshal does.
func FuzzUnmarshalObject(f *testing.F) {
	for _, s := range objectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if diff, _ := asObject(data); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}
