package status

import (
	"bytes"
	"errors"
)

// DecodeMembers is Decode of only the top-level members of data that keys
// name (the JSON names of Status's fields): those decode into a Status as
// Decode would decode them — a key matches its field whatever its case, a
// later duplicate decodes over an earlier — and the rest of data is only
// checked to be JSON. A reader that shows a few fields (a status line's
// preset) then builds no outputs, calls or tools it will not show. A type
// error in a member keys do not name goes unnoticed, as in the file a
// status line passes on as it is.
func DecodeMembers(data []byte, keys []string) (*Status, error) {
	s := &Status{}
	if err := decodeMembers(data, s, keys); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeMembers lays the members of data that keys name over s, a zero
// Status or a head's (Head.Status). When they are as Encode writes them and
// name none of the head's fields, decodeFast reads them without reflection
// and the head goes beside them.
func decodeMembers(data []byte, s *Status, keys []string) error {
	picked, headNamed, ok := pickMembers(data, keys)
	if !ok {
		return errors.New("not a JSON object")
	}
	var t Status
	if !headNamed && decodeFast(picked, &t) {
		t.Schema, t.Session, t.PID, t.PIDStart, t.Host = s.Schema, s.Session, s.PID, s.PIDStart, s.Host
		t.Terminal, t.Terminals, t.StartedAt, t.UpdatedAt = s.Terminal, s.Terminals, s.StartedAt, s.UpdatedAt
		*s = t
		return nil
	}
	return unmarshal(picked, s)
}

// pickMembers is the object of data's members keys may name (mayName), and
// whether one of them names a head's field (headKeys); ok is false when
// data is not one JSON object.
func pickMembers(data []byte, keys []string) (picked []byte, headNamed, ok bool) {
	picked = []byte{'{'}
	if !walkJSON(data, func(key, value []byte) bool {
		if mayName(key, keys) {
			if len(picked) > 1 {
				picked = append(picked, ',')
			}
			picked = append(append(picked, key...), value...)
			_, named := headKeys[MemberName(key)]
			headNamed = headNamed || named
		}
		return true
	}) || !isObject(data) {
		return nil, false, false
	}
	return append(picked, '}'), headNamed, true
}

// mayName reports whether the member key (as written, quoted, with its
// colon) may be one of keys to encoding/json: an ASCII key when it is one
// whatever its case, a key with an escape or a byte outside ASCII always,
// since such a key may fold onto a field (ſ is s to encoding/json), and
// the decode of the picked members then decides as it would over data.
func mayName(key []byte, keys []string) bool {
	name := key[1:bytes.LastIndexByte(key, '"')]
	for _, c := range name {
		if c == '\\' || c >= 0x80 {
			return true
		}
	}
	for _, k := range keys {
		if bytes.EqualFold(name, []byte(k)) {
			return true
		}
	}
	return false
}
