package transcript

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
)

// scanner walks one line of JSON. It accepts exactly what JavaScript's
// JSON.parse accepts (Pi's loader skips every line JSON.parse rejects), and
// hands the few fields jig needs to callbacks without building a generic
// value. Nesting that jig does not read is skipped iteratively, so a line of
// a million '[' costs memory, not stack.
type scanner struct {
	b     []byte
	i     int
	stack []byte
	words map[string]string // see word
}

// The word table's bounds: a hostile file's many long values cost no
// memory, only their allocation.
const (
	maxWords   = 256
	maxWordLen = 64
)

// plain marks the bytes a string may hold without a second look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// str reads the string at s.i. It returns the raw bytes between the quotes,
// and adj, what the escapes change in the UTF-16 length: each escape is one
// code unit but two or six bytes.
func (s *scanner) str() (raw []byte, adj int, ok bool) {
	b := s.b
	start := s.i + 1
	i := start
	for {
		i += plainLen(b[i:]) // to the quote, a backslash or a bad byte
		if i >= len(b) {
			return nil, 0, false
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return b[start:i], adj, true
		case c < 0x20:
			return nil, 0, false
		}
		i++ // the backslash
		if i >= len(b) {
			return nil, 0, false
		}
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
			adj--
		case 'u':
			if i+4 >= len(b) || !hex(b[i+1]) || !hex(b[i+2]) || !hex(b[i+3]) || !hex(b[i+4]) {
				return nil, 0, false
			}
			i += 5
			adj -= 5
		default:
			return nil, 0, false
		}
	}
}

// plainLen is how many bytes p starts with that are no '"', '\\' or control
// byte: a word at a time (special: exact for the lowest flagged byte), two
// words a turn.
func plainLen(p []byte) int {
	n := 0
	for ; len(p) >= 16; p = p[16:] {
		if m := special(binary.LittleEndian.Uint64(p)); m != 0 {
			return n + bits.TrailingZeros64(m)>>3
		}
		if m := special(binary.LittleEndian.Uint64(p[8:])); m != 0 {
			return n + 8 + bits.TrailingZeros64(m)>>3
		}
		n += 16
	}
	if len(p) >= 8 {
		if m := special(binary.LittleEndian.Uint64(p)); m != 0 {
			return n + bits.TrailingZeros64(m)>>3
		}
		n, p = n+8, p[8:]
	}
	for _, c := range p {
		if !plain[c] {
			break
		}
		n++
	}
	return n
}

// special flags the high bit of each byte of w that is '"', '\\' or a
// control byte: subtracting ones sets it in a zero byte of w^'"' and of
// w^'\\', subtracting 0x20s in a byte below 0x20, and &^w drops the bytes
// whose own high bit is set (an xor with an ASCII byte keeps it, so one
// &^w serves the three). A borrow may flag a byte above a flagged one too,
// never below: the lowest flag is exact.
func special(w uint64) uint64 {
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q - ones) | (bs - ones) | (w - ones*0x20)) &^ w & highs
}

func hex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// text decodes a raw string (escapes are rare in the fields jig keeps).
func text(raw []byte, adj int) string {
	if adj == 0 {
		return string(raw)
	}
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	var v string
	json.Unmarshal(q, &v)
	return v
}

// utf16Len is JavaScript's .length of a string whose raw JSON bytes are raw:
// one unit per UTF-8 sequence, two for four-byte ones, escapes adjusted by adj.
func utf16Len(raw []byte, adj int) int {
	n := 0
	for ; len(raw) >= 32; raw = raw[32:] {
		// thirty-two ASCII bytes at a time, the common case
		w0, w1 := binary.LittleEndian.Uint64(raw[:8]), binary.LittleEndian.Uint64(raw[8:16])
		w2, w3 := binary.LittleEndian.Uint64(raw[16:24]), binary.LittleEndian.Uint64(raw[24:32])
		if (w0|w1|w2|w3)&highs == 0 {
			n += 32
			continue
		}
		n += wordUnits(w0) + wordUnits(w1) + wordUnits(w2) + wordUnits(w3)
	}
	for ; len(raw) >= 8; raw = raw[8:] {
		n += wordUnits(binary.LittleEndian.Uint64(raw[:8]))
	}
	for _, c := range raw {
		n += units(c)
	}
	return n + adj
}

// wordUnits is units summed over the eight bytes of w: one each, none for
// a continuation byte (10xxxxxx), two for a four-byte lead (11110xxx and
// up). Shifting w left by k brings each byte's bit 7-k to its bit 7.
func wordUnits(w uint64) int {
	if w&highs == 0 {
		return 8
	}
	cont := w &^ (w << 1) & highs
	lead4 := w & (w << 1) & (w << 2) & (w << 3) & highs
	return 8 - bits.OnesCount64(cont) + bits.OnesCount64(lead4)
}

// units is what one byte adds to utf16Len.
func units(c byte) int {
	switch {
	case c < 0x80:
		return 1
	case c < 0xC0:
		return 0 // continuation
	case c >= 0xF0:
		return 2 // a surrogate pair in UTF-16
	}
	return 1
}

func (s *scanner) lit(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// number reads a JSON number and returns its raw bytes.
func (s *scanner) number() ([]byte, bool) {
	b, i := s.b, s.i
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false
		}
	}
	s.i = i
	return b[start:i], true
}

// scalar reads one string, number or literal.
func (s *scanner) scalar() bool {
	switch c := s.peek(); c {
	case '"':
		_, _, ok := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	default:
		_, ok := s.number()
		return ok
	}
}

// key reads `"name" :` and leaves s.i at the value.
func (s *scanner) key() ([]byte, bool) {
	s.ws()
	if s.peek() != '"' {
		return nil, false
	}
	raw, adj, ok := s.str()
	if !ok {
		return nil, false
	}
	if adj != 0 {
		raw = []byte(text(raw, adj))
	}
	s.ws()
	if s.peek() != ':' {
		return nil, false
	}
	s.i++
	s.ws()
	return raw, true
}

// skip validates and passes over one value, without recursion.
func (s *scanner) skip() bool {
	st := s.stack[:0]
	defer func() { s.stack = st[:0] }()
	for {
		s.ws()
		switch s.peek() {
		case '{':
			s.i++
			s.ws()
			if s.peek() == '}' {
				s.i++
				break
			}
			st = append(st, '{')
			if _, ok := s.key(); !ok {
				return false
			}
			continue
		case '[':
			s.i++
			s.ws()
			if s.peek() == ']' {
				s.i++
				break
			}
			st = append(st, '[')
			continue
		default:
			if !s.scalar() {
				return false
			}
		}
		// after a value: close containers or move to the next member
		for {
			if len(st) == 0 {
				return true
			}
			s.ws()
			c, top := s.peek(), st[len(st)-1]
			if c == ',' {
				s.i++
				if top == '{' {
					if _, ok := s.key(); !ok {
						return false
					}
				}
				break
			}
			if top == '{' && c == '}' || top == '[' && c == ']' {
				s.i++
				st = st[:len(st)-1]
				continue
			}
			return false
		}
	}
}

// object walks an object's members; field must consume each value.
func (s *scanner) object(field func(key []byte) bool) bool {
	s.ws()
	if s.peek() != '{' {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		k, ok := s.key()
		if !ok || !field(k) {
			return false
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// array walks an array's elements; elem must consume each value.
func (s *scanner) array(elem func() bool) bool {
	s.ws()
	if s.peek() != '[' {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		s.ws()
		if !elem() {
			return false
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// strOr reads a string value into *dst; any other value is skipped and
// leaves *dst alone (a field of the wrong type counts as absent).
func (s *scanner) strOr(dst *string) bool {
	if s.peek() != '"' {
		return s.skip()
	}
	raw, adj, ok := s.str()
	if ok {
		*dst = text(raw, adj)
	}
	return ok
}

// rawText is a string value as a line holds it: the bytes between its
// quotes (valid as long as the line is) and its escapes' adj.
type rawText struct {
	raw []byte
	adj int
}

func (t rawText) text() string { return text(t.raw, t.adj) }

// bytes is the text, without a string when there are no escapes.
func (t rawText) bytes() []byte {
	if t.adj == 0 {
		return t.raw
	}
	return []byte(t.text())
}

// rawOr is strOr without the string.
func (s *scanner) rawOr(dst *rawText) bool {
	if s.peek() != '"' {
		return s.skip()
	}
	raw, adj, ok := s.str()
	if ok {
		*dst = rawText{raw, adj}
	}
	return ok
}

// word is strOr for the fields that take a few values over a whole file
// (types, roles, providers, models, tool names): each value is allocated
// once, from a table of at most maxWords short ones.
func (s *scanner) word(dst *string) bool {
	if s.peek() != '"' {
		return s.skip()
	}
	raw, adj, ok := s.str()
	if !ok {
		return false
	}
	if w, hit := s.words[string(raw)]; hit && adj == 0 {
		*dst = w
		return true
	}
	*dst = text(raw, adj)
	if adj == 0 && len(raw) <= maxWordLen && len(s.words) < maxWords {
		if s.words == nil {
			s.words = map[string]string{}
		}
		s.words[*dst] = *dst
	}
	return true
}

// strLen reads a string value and returns its JavaScript length; -1 when
// the value is not a string.
func (s *scanner) strLen() (int, bool) {
	if s.peek() != '"' {
		return -1, s.skip()
	}
	raw, adj, ok := s.str()
	return utf16Len(raw, adj), ok
}

// num reads a number into *dst; other values are skipped.
func (s *scanner) num(dst *float64, set *bool) bool {
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return s.skip()
	}
	raw, ok := s.number()
	if !ok {
		return false
	}
	v, exact := exactInt(raw)
	var err error
	if !exact {
		v, err = strconv.ParseFloat(string(raw), 64)
	}
	if err == nil {
		*dst = v
		if set != nil {
			*set = true
		}
	}
	return true
}

// exactInt is the value of a JSON integer of up to 15 digits (token counts,
// unix ms), exact in a float64 as ParseFloat makes it, without its string;
// false for any other number.
func exactInt(raw []byte) (float64, bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	v := float64(n)
	if len(digits) < len(raw) {
		v = -v
	}
	return v, true
}

// boolean reads true or false into *dst; other values are skipped.
func (s *scanner) boolean(dst *bool) bool {
	switch s.peek() {
	case 't':
		*dst = true
		return s.lit("true")
	case 'f':
		*dst = false
		return s.lit("false")
	}
	return s.skip()
}

// line checks that b is exactly one JSON object (surrounding whitespace
// allowed) after the caller parsed it from s.i == 0.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}
