package board

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// A status file as jig writes it (status.Encode) has each top-level key on
// a line of its own, two spaces in: a string holds no raw newline, and
// deeper keys are indented further, so ",\n  \"" is only ever the start of
// the next top-level field. The board reads such a file field by field,
// decoding only the values a row shows: decoding 500 files whole would
// cost the board ten times what listing them does. A file laid out
// otherwise is decoded whole.

// fieldSep ends a top-level field in jig's layout (the quote opens the next).
var fieldSep = []byte(",\n  \"")

// field is one top-level field of a file in jig's layout: its key, its
// text (`"key": value`) and its value.
type field struct {
	key         string
	text, value []byte
}

// fieldsOf is the top-level fields of a file in jig's layout, in order;
// ok is false for a file laid out otherwise.
func fieldsOf(data []byte) (fields []field, ok bool) {
	body, ok := bytes.CutSuffix(bytes.TrimRight(data, " \n"), []byte("\n}"))
	if !ok || !bytes.HasPrefix(body, []byte("{\n  \"")) {
		return nil, false
	}
	fields = make([]field, 0, 32)
	for rest := body[len("{\n  "):]; len(rest) > 0; {
		text := rest
		if end := bytes.Index(rest, fieldSep); end >= 0 {
			text, rest = rest[:end], rest[end+len(fieldSep)-1:]
		} else {
			rest = nil
		}
		key, value, ok := bytes.Cut(text, []byte(`": `))
		if !ok || len(key) < 2 || key[0] != '"' || bytes.IndexByte(key[1:], '"') >= 0 {
			return nil, false
		}
		fields = append(fields, field{key: string(key[1:]), text: text, value: value})
	}
	return fields, true
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
	fields, ok := fieldsOf(data)
	if !ok {
		return data
	}
	out := make([]byte, 0, 2048)
	out = append(out, "{\n  "...)
	n := 0
	for _, f := range fields {
		text := f.text
		switch {
		case heavy[f.key]:
			continue
		case f.key == "contextDetail":
			tools, ok := detailTools(f.value)
			if !ok {
				continue
			}
			text = slices.Concat([]byte("\"contextDetail\": {\n    \"tools\": "), tools, []byte("\n  }"))
		case f.key == "recent":
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

// fileFields is the index in file of each field by its JSON key, found
// once, when a board first reads a file.
var fileFields = sync.OnceValue(func() map[string]int {
	t := reflect.TypeFor[file]()
	out := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = i
	}
	return out
})

// decodeFields fills f from a file in jig's layout, decoding the values of
// the fields it has and no others (the outputs are passed over: the board
// names a project by them only for a file laid out otherwise); ok is false
// for a file laid out otherwise, or a value that does not decode.
func decodeFields(data []byte, f *file) bool {
	fields, ok := fieldsOf(data)
	if !ok {
		return false
	}
	index := fileFields()
	v := reflect.ValueOf(f).Elem()
	for _, fl := range fields {
		switch i, ok := index[fl.key]; {
		case !ok || heavy[fl.key]:
		case fl.key == "recent":
			f.Recent = f.Recent[:0]
			for _, tool := range recentTools(fl.value) {
				f.Recent = append(f.Recent, struct {
					Tool string `json:"tool"`
				}{})
				if json.Unmarshal(tool, &f.Recent[len(f.Recent)-1].Tool) != nil {
					return false
				}
			}
		case fl.key == "contextDetail":
			f.ContextDetail = nil
			if tools, ok := detailTools(fl.value); ok {
				f.ContextDetail = &contextDetail{}
				if json.Unmarshal(tools, &f.ContextDetail.Tools) != nil {
					return false
				}
			}
		default:
			if json.Unmarshal(fl.value, v.Field(i).Addr().Interface()) != nil {
				return false
			}
		}
	}
	return true
}
