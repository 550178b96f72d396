package status

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// UnmarshalObject is json.Unmarshal(data, v) for v a pointer to a zero
// struct, without encoding/json's decoder of the struct's whole type,
// which it builds once per process with those of every type the struct
// holds before it decodes a byte: for a hook, which decodes one input
// and one cursor, most of the cost. The object's members are laid over
// v's fields by their json names (an embedded struct's promoted); a
// string, integer, boolean or json.RawMessage field is read off the
// bytes, any other by json.Unmarshal of its member alone. Whatever a
// member-by-member reading might take otherwise than json.Unmarshal — a
// key that folds onto a name without being it, a name twice, a member
// that does not decode, a struct not zero (json.Unmarshal decodes over
// it) or whose names need its rules of precedence — is decoded by
// json.Unmarshal of the whole, which says what is wrong.
// FuzzUnmarshalObject holds it to json.Unmarshal.
func UnmarshalObject(data []byte, v any) error {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Struct && rv.Elem().IsZero() {
		if unmarshalMembers(data, rv.Elem()) {
			return nil
		}
		rv.Elem().SetZero() // what the members read before one was declined
	}
	return json.Unmarshal(data, v)
}

// unmarshalMembers is UnmarshalObject's reading member by member into the
// zero struct s: false when it declines (s may then be half-filled).
func unmarshalMembers(data []byte, s reflect.Value) bool {
	fields, ok := jsonFields(s.Type(), nil, nil)
	if !ok || !isObject(data) {
		return false
	}
	seen := make([]bool, len(fields))
	declined := false
	walked := walkJSON(data, func(key, value []byte) bool {
		name := MemberName(key)
		i := 0
		for i < len(fields) && fields[i].name != name {
			i++
		}
		switch {
		case i == len(fields):
			declined = foldsOnto(name, fields)
		case seen[i]:
			declined = true
		default:
			seen[i] = true
			declined = !setField(s.FieldByIndex(fields[i].index), bytes.TrimRight(value, " \t\r\n"))
		}
		return !declined
	})
	return walked && !declined
}

// jsonField is one field as encoding/json names it, and where it is.
type jsonField struct {
	name  string
	index []int
}

// jsonFields are t's fields as encoding/json names them, an embedded
// struct's fields promoted (index is where t sits in the struct read);
// ok false for a struct that needs more of encoding/json's rules: a name
// twice (its rules of precedence), an embedded pointer or one named by its
// tag, the string option, a name of other bytes than letters, digits, '_'
// and '-'.
func jsonFields(t reflect.Type, index []int, fields []jsonField) ([]jsonField, bool) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		at := append(index[:len(index):len(index)], i)
		switch {
		case tag == "-":
			continue
		case sf.Anonymous && (sf.Type.Kind() == reflect.Pointer || name != ""), strings.Contains(","+opts+",", ",string,"):
			return nil, false
		case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			var ok bool
			if fields, ok = jsonFields(sf.Type, at, fields); !ok {
				return nil, false
			}
			continue
		case !sf.IsExported():
			continue // encoding/json neither: an unexported field, or an embedded one of another kind than a struct
		case name == "":
			name = sf.Name
		}
		for _, c := range []byte(name) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return nil, false
			}
		}
		for _, f := range fields {
			if f.name == name {
				return nil, false
			}
		}
		fields = append(fields, jsonField{name, at})
	}
	return fields, true
}

// foldsOnto reports whether a key that names no field may still be one
// to encoding/json, which matches a key to a name whatever its case (and
// folds ſ onto s): any key outside ASCII is taken to.
func foldsOnto(key string, fields []jsonField) bool {
	for _, c := range []byte(key) {
		if c >= 0x80 {
			return true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return true
		}
	}
	return false
}

var (
	rawType             = reflect.TypeFor[json.RawMessage]()
	numberType          = reflect.TypeFor[json.Number]() // a string to encoding/json only when it holds a number
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// setField lays one member's value over its field, as encoding/json does:
// false when it does not decode.
func setField(f reflect.Value, value []byte) bool {
	t := f.Type()
	if t == rawType {
		f.SetBytes(bytes.Clone(value))
		return true
	}
	null := string(value) == "null"
	number := value[0] == '-' || value[0] >= '0' && value[0] <= '9'
	if p := reflect.PointerTo(t); t != numberType && !p.Implements(unmarshalerType) && !p.Implements(textUnmarshalerType) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if null {
				return true // nil, as the zero struct holds it
			}
		case reflect.String:
			if null {
				return true
			}
			s, ok := "", value[0] == '"'
			if ok {
				s, ok = text(value)
			}
			f.SetString(s)
			return ok
		case reflect.Bool:
			if null {
				return true
			}
			f.SetBool(value[0] == 't')
			return value[0] == 't' || value[0] == 'f'
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if null {
				return true
			}
			n, err := strconv.ParseInt(string(value), 10, 64)
			if !number || err != nil || f.OverflowInt(n) {
				return false
			}
			f.SetInt(n)
			return true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if null {
				return true
			}
			n, err := strconv.ParseUint(string(value), 10, 64)
			if !number || err != nil || f.OverflowUint(n) {
				return false
			}
			f.SetUint(n)
			return true
		}
	}
	return json.Unmarshal(value, f.Addr().Interface()) == nil
}
