package board

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A status file as jig writes it (status.Encode) has each top-level key on
// a line of its own, two spaces in: a string holds no raw newline, and
// deeper keys are indented further, so ",\n  \"" is only ever the start of
// the next top-level field. The board reads such a file field by field,
// decoding only the values a row shows: decoding 500 files whole would
// cost the board ten times what listing them does. A file laid out
// otherwise is decoded whole.

// fieldSep ends a top-level field in jig's layout (the quote opens the
// next); an array's or an object's field ends with its closing bracket
// before it, which is rare inside it where a comma is not: looking for the
// two together passes over a long list in one stride.
var (
	fieldSep        = []byte(",\n  \"")
	arrayFieldSep   = []byte("],\n  \"")
	objectFieldSep  = []byte("},\n  \"")
	fieldSepClosing = map[byte][]byte{'[': arrayFieldSep, '{': objectFieldSep}
)

// field is one top-level field of a file in jig's layout: its key, its
// text (`"key": value`) and its value.
type field struct {
	key, text, value []byte
}

// eachField calls fn with each top-level field of a file in jig's layout,
// in order, until fn returns false; it reports whether the file is in that
// layout and fn took every field.
func eachField(data []byte, fn func(field) bool) bool {
	body, ok := bytes.CutSuffix(bytes.TrimRight(data, " \n"), []byte("\n}"))
	if !ok || !bytes.HasPrefix(body, []byte("{\n  \"")) {
		return false
	}
	for rest := body[len("{\n  "):]; len(rest) > 0; {
		key, value, ok := bytes.Cut(rest, []byte(`": `))
		if !ok || len(key) < 2 || key[0] != '"' || bytes.IndexByte(key[1:], '"') >= 0 || len(value) == 0 {
			return false
		}
		sep, skip := fieldSep, 0
		if closing, ok := fieldSepClosing[value[0]]; ok {
			sep, skip = closing, 1 // the bracket is the value's
		}
		text := rest
		if end := bytes.Index(value, sep); end >= 0 {
			end += len(rest) - len(value) + skip
			text, rest = rest[:end], rest[end+len(fieldSep)-1:]
		} else {
			rest = nil
		}
		if !fn(field{key: key[1:], text: text, value: text[len(key)+len(`": `):]}) {
			return false
		}
	}
	return true
}

// heavy are the fields of a status file the board has no use for, which
// make up most of its bytes.
var heavy = map[string]bool{"outputs": true, "workflow": true}

// Slim is a status file cut to what a board row reads of it, for a remote
// host's listing (`jig session list --slim`): without its outputs and
// workflow, its recent calls cut to their tools (each once, newest first)
// and its context detail to its tools, which leaves a tenth of a busy
// session's file; its small fields stay as they are (a newer board may show
// one more of them), and it stays in jig's layout. A file laid out
// otherwise is given as it is.
func Slim(data []byte) []byte {
	out := make([]byte, 0, 2048)
	out = append(out, "{\n  "...)
	n := 0
	if !eachField(data, func(f field) bool {
		text := f.text
		switch {
		case heavy[string(f.key)]:
			return true
		case string(f.key) == "contextDetail":
			tools, ok := detailTools(f.value)
			if !ok {
				return true
			}
			text = slices.Concat([]byte("\"contextDetail\": {\n    \"tools\": "), tools, []byte("\n  }"))
		case string(f.key) == "recent":
			text = []byte(`"recent": [`)
			for i, tool := range recentTools(f.value) {
				if i > 0 {
					text = append(text, ',')
				}
				text = append(append(append(text, "\n    {\n      \"tool\": "...), tool...), "\n    }"...)
			}
			if len(text) > len(`"recent": [`) {
				text = append(text, "\n  "...)
			}
			text = append(text, ']')
		}
		if n > 0 {
			out = append(out, ",\n  "...)
		}
		out = append(out, text...)
		n++
		return true
	}) {
		return data
	}
	return append(out, "\n}\n"...)
}

// detailTools is the value of the tools of a context detail in jig's
// layout; ok is false when it names none.
func detailTools(value []byte) ([]byte, bool) {
	key := []byte("\n    \"tools\": ")
	i := bytes.Index(value, key)
	if i < 0 {
		return nil, false
	}
	v := value[i+len(key):]
	if end := bytes.Index(v, []byte(",\n    \"")); end >= 0 { // the detail's next key
		return v[:end], true
	}
	return bytes.TrimSuffix(v, []byte("\n  }")), true // its last key
}

// recentTools is the tool of each recent call in jig's layout, each once,
// newest first, as JSON strings: the one thing the board reads of them.
func recentTools(value []byte) [][]byte {
	key := []byte("\n      \"tool\": ")
	var seen [][]byte
	for rest := value; ; {
		i := bytes.Index(rest, key)
		if i < 0 {
			return seen
		}
		rest = rest[i+len(key):]
		tool, _, _ := bytes.Cut(rest, []byte("\n"))
		tool = bytes.TrimSuffix(tool, []byte(","))
		if !slices.ContainsFunc(seen, func(s []byte) bool { return bytes.Equal(s, tool) }) {
			seen = append(seen, tool)
		}
	}
}

// jsonFields is the index of each field of struct type t by its JSON key.
func jsonFields(t reflect.Type) map[string]int {
	if m, ok := structFields.Load(t); ok {
		return m.(map[string]int)
	}
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			m[name] = i
		}
	}
	structFields.Store(t, m)
	return m
}

// structFields caches jsonFields by type.
var structFields sync.Map

// decodeFields fills f from a file in jig's layout, decoding the values of
// the fields it has and no others (the outputs are passed over: the board
// names a project by them only for a file laid out otherwise), of each
// recent call its tool alone, of the context detail its tools alone; ok is
// false for a file laid out otherwise, or a value that does not decode.
func decodeFields(data []byte, f *file) bool {
	index := jsonFields(reflect.TypeFor[file]())
	v := reflect.ValueOf(f).Elem()
	return eachField(data, func(fl field) bool {
		i, ok := index[string(fl.key)]
		switch {
		case !ok || heavy[string(fl.key)]:
			return true
		case string(fl.key) == "recent" && isList(fl.value, 1):
			f.Recent = f.Recent[:0]
			for _, tool := range recentTools(fl.value) {
				name, ok := jsonString(tool)
				if !ok {
					return false
				}
				f.Recent = append(f.Recent, struct {
					Tool string `json:"tool"`
				}{name})
			}
			return true
		case string(fl.key) == "contextDetail":
			f.ContextDetail = nil
			tools, ok := detailTools(fl.value)
			if !ok {
				return decodeValue(fl.value, v.Field(i), 1)
			}
			f.ContextDetail = &contextDetail{}
			return decodeValue(tools, reflect.ValueOf(&f.ContextDetail.Tools).Elem(), 2)
		}
		return decodeValue(fl.value, v.Field(i), 1)
	})
}

// level is what marks the values and keys of one depth of jig's layout,
// whose lines are indented by two spaces a depth.
type level struct {
	objectClose, listOpen, listClose, itemSep []byte // of a value whose closing bracket is at this depth
	keyStart, keySep                          []byte // of keys at this depth
}

// levels are the depths of a status file the board reads in its layout;
// deeper values are decoded by encoding/json.
var levels = sync.OnceValue(func() []level {
	out := make([]level, 6)
	for d := range out {
		sp, in := strings.Repeat("  ", d), strings.Repeat("  ", d+1)
		out[d] = level{
			objectClose: []byte("\n" + sp + "}"),
			listOpen:    []byte("[\n" + in + "{"), listClose: []byte("\n" + in + "}\n" + sp + "]"),
			itemSep:  []byte("\n" + in + "},\n" + in + "{"),
			keyStart: []byte("\n" + sp + `"`), keySep: []byte(",\n" + sp + `"`),
		}
	}
	return out
})

// decodeValue decodes value, laid out as jig writes it with its closing
// bracket at depth (1 for a top-level field's), into dst: the strings,
// bools, times, nulls, objects and lists of objects that make up a status
// file's small fields without encoding/json's machinery, which costs more
// to set up than they take to read (an object's keys that dst has no field
// for are passed over); numbers, maps and the rest with it.
func decodeValue(value []byte, dst reflect.Value, depth int) bool {
	lv := levels()
	switch {
	case dst.Kind() == reflect.Pointer:
		if string(value) == "null" {
			dst.SetZero()
			return true
		}
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return decodeValue(value, dst.Elem(), depth)
	case dst.Kind() == reflect.String:
		s, ok := jsonString(value)
		dst.SetString(s)
		return ok
	case dst.Kind() == reflect.Bool:
		b, ok := jsonBool(value)
		dst.SetBool(b)
		return ok
	case dst.Type() == timeType:
		return dst.Addr().Interface().(*time.Time).UnmarshalJSON(value) == nil
	case depth+2 >= len(lv):
	case dst.Kind() == reflect.Struct:
		if string(value) == "{}" {
			return true
		}
		keys, ok := bytes.CutPrefix(value, []byte("{"))
		if ok {
			keys, ok = bytes.CutSuffix(keys, lv[depth].objectClose)
		}
		return ok && decodeKeys(keys, dst, depth+1)
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.Struct:
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0))
		if string(value) == "[]" {
			return true
		}
		items, ok := bytes.CutPrefix(value, lv[depth].listOpen)
		if ok {
			items, ok = bytes.CutSuffix(items, lv[depth].listClose)
		}
		if !ok {
			break
		}
		for item := range bytes.SplitSeq(items, lv[depth].itemSep) {
			dst.Set(reflect.Append(dst, reflect.New(dst.Type().Elem()).Elem()))
			if !decodeKeys(item, dst.Index(dst.Len()-1), depth+2) {
				return false
			}
		}
		return true
	}
	return json.Unmarshal(value, dst.Addr().Interface()) == nil
}

var timeType = reflect.TypeFor[time.Time]()

// isList reports whether value is a list of objects in jig's layout, its
// closing bracket at depth, or an empty one.
func isList(value []byte, depth int) bool {
	lv := levels()[depth]
	return string(value) == "[]" || string(value) == "null" || bytes.HasPrefix(value, lv.listOpen) && bytes.HasSuffix(value, lv.listClose)
}

// decodeKeys decodes the keys of an object in jig's layout, each on a
// line of its own at depth, into the struct dst.
func decodeKeys(keys []byte, dst reflect.Value, depth int) bool {
	lv := levels()[depth]
	keys, ok := bytes.CutPrefix(keys, lv.keyStart)
	if !ok {
		return false
	}
	index := jsonFields(dst.Type())
	for kv := range bytes.SplitSeq(keys, lv.keySep) {
		key, value, ok := bytes.Cut(kv, []byte(`": `))
		if !ok {
			return false
		}
		if i, ok := index[string(key)]; ok && !decodeValue(value, dst.Field(i), depth) {
			return false
		}
	}
	return true
}

// jsonString is the string a JSON string literal holds: read as it is
// when it has no escapes and is valid UTF-8 (jig's ids, names and paths),
// else decoded by encoding/json; ok is false when it is no string.
func jsonString(v []byte) (string, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		inner := v[1 : len(v)-1]
		plain := utf8.Valid(inner)
		for _, c := range inner {
			plain = plain && c >= 0x20 && c != '"' && c != '\\'
		}
		if plain {
			return string(inner), true
		}
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err == nil
}

// jsonBool is the value of a JSON true or false.
func jsonBool(v []byte) (b, ok bool) {
	return string(v) == "true", string(v) == "true" || string(v) == "false"
}
