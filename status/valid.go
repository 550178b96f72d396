package status

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// maxDepth is how deeply json.Valid lets values nest.
const maxDepth = 10000

// validJSON reports what json.Valid(data) reports: one JSON value, only
// space around it, nested at most maxDepth deep. It walks the bytes in one
// loop where json.Valid makes a call per byte: a status line passes a 24 KB
// file on at each refresh, and json.Valid was a third of its instructions
// (0.83 M of 2.6 M under callgrind). FuzzValidJSON holds it to json.Valid.
func validJSON(data []byte) bool { return walkJSON(data, nil) }

// WalkMembers is walkJSON for readers outside status: a --format template
// reads a few members of a document it checks whole, a hook the first two
// of its cursor's state.
func WalkMembers(data []byte, member func(key, value []byte) (more bool)) bool {
	return walkJSON(data, member)
}

// MemberName is a member's key as WalkMembers hands it on (quoted, with
// its colon), unquoted as encoding/json unquotes a key.
func MemberName(key []byte) string {
	name, _ := text(key[:bytes.LastIndexByte(key, '"')+1]) // a valid string: the walk checked it
	return name
}

// walkJSON is validJSON that, when data is an object, hands member each of
// its members as it passes them: the key as written with its colon, and the
// value's bytes (space after it included), both slices of data. They are
// handed before the rest is checked: a caller uses them only when walkJSON
// reports true. When member says no more, the walk stops there and reports
// true: what it read was JSON.
func walkJSON(data []byte, member func(key, value []byte) (more bool)) bool {
	end, ok := walkValue(data, skipSpace(data, 0), 0, member)
	return ok && end == len(data)
}

// walkValue is walkJSON of the one value at i, which depth containers
// hold already (json.Valid counts their nesting too): where the space
// after it ends. When member says no more, it reports len(data).
func walkValue(data []byte, i, depth int, member func(key, value []byte) (more bool)) (int, bool) {
	var open []byte        // '{' or '[' of each container around i
	var keyAt, valueAt int // where the top-level member being read starts
value:
	for {
		if i >= len(data) {
			return i, false
		}
		ok := true
		switch c := data[i]; {
		case c == '{' || c == '[':
			if open = append(open, c); depth+len(open) > maxDepth {
				return i, false
			}
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' or ']'
				open, i = open[:len(open)-1], i+1
				break
			}
			if c == '{' {
				at := i
				if i, ok = key(data, i); !ok {
					return i, false
				}
				if len(open) == 1 {
					keyAt, valueAt = at, i
				}
			}
			continue value
		case c == '"':
			i, ok = quoted(data, i)
		case c == '-' || c >= '0' && c <= '9':
			i, ok = number(data, i)
		case c == 't':
			i, ok = literal(data, i, "true")
		case c == 'f':
			i, ok = literal(data, i, "false")
		case c == 'n':
			i, ok = literal(data, i, "null")
		default:
			return i, false
		}
		if !ok {
			return i, false
		}
		// After a value: the containers it closes, then a comma or the end.
		for {
			i = skipSpace(data, i)
			if len(open) == 0 {
				return i, true
			}
			if i >= len(data) {
				return i, false
			}
			top := open[len(open)-1]
			if member != nil && len(open) == 1 && top == '{' && (data[i] == '}' || data[i] == ',') &&
				!member(data[keyAt:valueAt], data[valueAt:i]) {
				return len(data), true
			}
			switch data[i] {
			case top + 2:
				open, i = open[:len(open)-1], i+1
				continue
			case ',':
				i = skipSpace(data, i+1)
				if top == '{' {
					at := i
					if i, ok = key(data, i); !ok {
						return i, false
					}
					if len(open) == 1 {
						keyAt, valueAt = at, i
					}
				}
				continue value
			}
			return i, false
		}
	}
}

// CutValue cuts data after the JSON value it begins with (space before it
// allowed), as a json.Decoder takes one value off a stream: the value,
// without the space after it, and what follows; ok false when data does
// not begin with one.
func CutValue(data []byte) (value, rest []byte, ok bool) {
	value, end, ok := valueAt(data, skipSpace(data, 0), 0)
	return value, data[end:], ok
}

// valueAt is the JSON value at i, which depth containers hold already,
// without the space after it, and where that space ends.
func valueAt(data []byte, i, depth int) ([]byte, int, bool) {
	end, ok := walkValue(data, i, depth, nil)
	if !ok {
		return nil, i, false
	}
	return bytes.TrimRight(data[i:end], " \t\r\n"), end, true
}

// key reads an object's key and its colon at i, up to the value.
func key(data []byte, i int) (int, bool) {
	i, ok := quoted(data, i)
	if !ok {
		return i, false
	}
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != ':' {
		return i, false
	}
	return skipSpace(data, i+1), true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	return i
}

// quoted reads a string at i: no control byte, only JSON's escapes. Like
// json.Valid, it takes any other byte, valid UTF-8 or not.
func quoted(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return i, false
	}
	for i++; i < len(data); i++ {
		i = plainRun(data, i)
		if i >= len(data) {
			break
		}
		switch c := data[i]; {
		case c < 0x20:
			return i, false
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i++; i >= len(data) {
				return i, false
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return i, false
				}
				for _, h := range data[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

// plainRun is where the run of plain string bytes (none a control byte,
// '"' or '\\') that starts at i ends, eight bytes at a time: strings are
// most of a status file's bytes.
func plainRun(data []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(data); i += 8 {
		x := binary.LittleEndian.Uint64(data[i:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		// a byte below 0x20, or one that is '"' or '\\' (zero after the xor):
		// a borrow may mark a byte above a marked one too, never below, so
		// the lowest mark is the first such byte
		special := ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & highs
		if special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
	}
	return i
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func number(data []byte, i int) (int, bool) {
	digits := func(i int) (int, bool) {
		j := i
		for j < len(data) && data[j] >= '0' && data[j] <= '9' {
			j++
		}
		return j, j > i
	}
	if data[i] == '-' {
		i++
	}
	var ok bool
	if i < len(data) && data[i] == '0' {
		i++
	} else if i, ok = digits(i); !ok {
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return i, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return i, false
		}
	}
	return i, true
}

func literal(data []byte, i int, word string) (int, bool) {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}
