package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error lines cut every value longer than maxValue bytes (a word, or a
// quoted string's content) to its start and end around a marker, so a
// 100 000-digit number or a megabyte of text sent on stdin comes back as
// one short line.
const (
	maxValue  = 64
	valueHead = 32
	valueTail = 16
)

// ErrorLine is an error's message as an error line shows it: one line,
// each value longer than maxValue cut (cutValues), cleaned (Clean) since
// it may echo a path, an id or a value from a status file.
func ErrorLine(msg string) string {
	return Clean(cutValues(strings.TrimSpace(msg)))
}

// cutValues cuts each value in msg longer than maxValue: a quoted string
// (its content; spaces and escaped quotes inside are part of it) or a run
// of characters that are neither spaces nor quotes.
func cutValues(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		switch {
		case msg[i] == ' ':
			b.WriteByte(' ')
			i++
		case msg[i] == '"':
			end := closingQuote(msg, i)
			if end < 0 {
				b.WriteByte('"')
				i++
				continue
			}
			b.WriteByte('"')
			b.WriteString(cutValue(msg[i+1 : end]))
			b.WriteByte('"')
			i = end + 1
		default:
			end := i + strings.IndexAny(msg[i:], ` "`)
			if end < i {
				end = len(msg)
			}
			b.WriteString(cutValue(msg[i:end]))
			i = end
		}
	}
	return b.String()
}

// closingQuote is the index of the quote that ends the string opened at
// msg[open], skipping backslash escapes; -1 when it is not closed.
func closingQuote(msg string, open int) int {
	for i := open + 1; i < len(msg); i++ {
		switch msg[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// cutValue keeps v's first valueHead and last valueTail bytes (whole UTF-8
// characters) and says how many it cut between them.
func cutValue(v string) string {
	if len(v) <= maxValue {
		return v
	}
	head, tail := valueHead, len(v)-valueTail
	for head > 0 && !utf8.RuneStart(v[head]) {
		head--
	}
	for tail < len(v) && !utf8.RuneStart(v[tail]) {
		tail++
	}
	return fmt.Sprintf("%s…(%d bytes cut)…%s", v[:head], tail-head, v[tail:])
}
