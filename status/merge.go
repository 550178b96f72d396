package status

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// Merge lays patch over base, both JSON objects: an object in the patch is
// merged key by key into the base's object, anything else (a list, a value,
// null) replaces what was there. Fields the patch does not name keep their
// values. This is how `jig session write` applies what the agent says live
// over the previous file, and the live agent over the transcript.
func Merge(base, patch []byte) ([]byte, error) {
	var b, p map[string]json.RawMessage
	if err := decodeObject(base, &b); err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	if err := decodeObject(patch, &p); err != nil {
		return nil, err
	}
	merged, err := mergeObjects(b, p)
	if err != nil {
		return nil, err
	}
	return json.Marshal(merged)
}

// mergeObjects merges patch into base, key by key. A value stays as its
// bytes unless both sides hold an object there: a status's outputs and
// recent calls are never decoded, only the objects the patch names.
func mergeObjects(base, patch map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if base == nil {
		base = map[string]json.RawMessage{}
	}
	for k, pv := range patch {
		if bv, ok := base[k]; ok && isObject(pv) && isObject(bv) {
			var bo, po map[string]json.RawMessage
			if err := json.Unmarshal(bv, &bo); err != nil {
				return nil, fmt.Errorf("base: %w", err)
			}
			if err := json.Unmarshal(pv, &po); err != nil {
				return nil, err
			}
			mo, err := mergeObjects(bo, po)
			if err != nil {
				return nil, err
			}
			if pv, err = json.Marshal(mo); err != nil {
				return nil, err
			}
		}
		base[k] = pv
	}
	return base, nil
}

func isObject(v json.RawMessage) bool {
	v = bytes.TrimLeft(v, " \t\r\n")
	return len(v) > 0 && v[0] == '{'
}

// Restates reports whether patch, laid over s by Merge, would leave s as
// it is: every key it names is a field of s whose JSON holds the same
// value (objects compared key by key, as Merge merges them). A key s has
// no field for, or a patch Merge refuses, restates nothing.
func Restates(s *Status, patch []byte) bool {
	// what a hook says most, its state as it was: decoded over a copy of
	// s and compared, without encoding s's fields to compare their JSON
	if laid := *s; isObject(patch) && decodeFast(patch, &laid) && laid.sameAs(s) {
		return true
	}
	var p map[string]json.RawMessage
	if decodeObject(patch, &p) != nil {
		return false
	}
	fields := statusFields()
	v := reflect.ValueOf(s).Elem()
	for k, pv := range p {
		i, ok := fields[k]
		if !ok {
			return false
		}
		bv, err := json.Marshal(v.Field(i).Interface())
		if err != nil || !restated(bv, pv) {
			return false
		}
	}
	return true
}

// statusFields is each Status field's index by its JSON name.
var statusFields = sync.OnceValue(func() map[string]int {
	t := reflect.TypeFor[Status]()
	fields := map[string]int{}
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			fields[name] = i
		}
	}
	return fields
})

// restated reports whether patch, merged into base, leaves it the same
// value: both objects and each key of patch's the same in base, or equal
// values (numbers as written: 1 and 1.0 differ, as they may for a field).
func restated(base, patch json.RawMessage) bool {
	if isObject(base) && isObject(patch) {
		var b, p map[string]json.RawMessage
		if json.Unmarshal(base, &b) != nil || json.Unmarshal(patch, &p) != nil {
			return false
		}
		for k, pv := range p {
			if bv, ok := b[k]; !ok || !restated(bv, pv) {
				return false
			}
		}
		return true
	}
	var x, y any
	return decodeNumbers(base, &x) == nil && decodeNumbers(patch, &y) == nil && reflect.DeepEqual(x, y)
}

func decodeNumbers(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// decodeObject reads one JSON object (an empty input is an empty object),
// its values left as their bytes.
func decodeObject(data []byte, into *map[string]json.RawMessage) error {
	if len(bytes.TrimSpace(data)) == 0 { // only spaces: nothing said; else the decoder says what is JSON (a \f is not)
		*into = map[string]json.RawMessage{}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var err error
	if isObject(data) {
		err = dec.Decode(into)
	} else {
		err = dec.Decode(new(any)) // to say what is wrong, as for an object
	}
	switch {
	case err != nil:
		return fmt.Errorf("not JSON: %w", err)
	case dec.More():
		return fmt.Errorf("more than one JSON value")
	case !isObject(data):
		return fmt.Errorf("not a JSON object")
	}
	return nil
}

// Decode reads a status document, saying which field is of the wrong type.
func Decode(data []byte) (*Status, error) {
	var s Status
	if !decodeFast(data, &s) {
		s = Status{} // what it read before it declined
		if err := unmarshal(data, &s); err != nil {
			return nil, err
		}
	}
	s.raw = data
	return &s, nil
}

// unmarshal is json.Unmarshal of a status document into s, saying which
// field is of the wrong type.
func unmarshal(data []byte, s *Status) error {
	if err := json.Unmarshal(data, s); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			return fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		// a type's own UnmarshalJSON (time.Time's) does not say where it was
		if field, value, t, ok := refusedField(data, reflect.TypeOf(*s), ""); ok {
			want := "a " + t.String()
			if t == reflect.TypeOf(time.Time{}) {
				want = "an RFC 3339 time"
			}
			return fmt.Errorf("field %s: %s is not %s", field, value, want)
		}
		return err
	}
	return nil
}

// refusedField walks a JSON value beside the Go type it decodes into and
// finds the first field whose type's own UnmarshalJSON refuses its value:
// the field's path (dotted, as json.UnmarshalTypeError names one), the
// value and the type.
func refusedField(data []byte, t reflect.Type, path string) (string, []byte, reflect.Type, bool) {
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		if err := json.Unmarshal(data, reflect.New(t).Interface()); err != nil {
			return path, data, t, true
		}
		return "", nil, nil, false
	}
	join := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	// a value of another shape than t's was a json.UnmarshalTypeError, so
	// each Unmarshal below either fits or leaves nothing to walk
	switch t.Kind() {
	case reflect.Pointer:
		return refusedField(data, t.Elem(), path)
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		json.Unmarshal(data, &items)
		for _, item := range items {
			if f, v, ft, ok := refusedField(item, t.Elem(), path); ok {
				return f, v, ft, true
			}
		}
	case reflect.Map:
		var values map[string]json.RawMessage
		json.Unmarshal(data, &values)
		for k, item := range values {
			if f, v, ft, ok := refusedField(item, t.Elem(), join(k)); ok {
				return f, v, ft, true
			}
		}
	case reflect.Struct:
		var values map[string]json.RawMessage
		json.Unmarshal(data, &values)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			for k, item := range values { // encoding/json matches names case-insensitively
				if strings.EqualFold(k, name) {
					if f, v, ft, ok := refusedField(item, sf.Type, join(name)); ok {
						return f, v, ft, true
					}
				}
			}
		}
	}
	return "", nil, nil, false
}
