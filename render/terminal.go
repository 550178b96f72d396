package render

import (
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// TerminalWriter is w for a terminal. Every character outside ASCII that
// Clean would change (C1 controls, the line and paragraph separators, the
// bidi and other format characters) is written as a \uXXXX escape, and a
// byte that is not UTF-8 as U+FFFD. JSON printed on a terminal then stays
// the same JSON (Go's encoder escapes only the C0 controls; the rest can
// only stand inside strings, where the escape means the same character),
// yet cannot reorder or drive the terminal. ASCII passes as it is: the
// colours jig draws are its own ESC sequences, and every other text jig
// prints was cleaned already.
func TerminalWriter(w io.Writer) io.Writer {
	return &terminalWriter{w: w}
}

type terminalWriter struct {
	w    io.Writer
	tail []byte // the start of a character the last write cut in two
}

// Unwrap is the writer underneath, for what needs the terminal itself (its
// size, raw mode).
func (t *terminalWriter) Unwrap() io.Writer { return t.w }

func (t *terminalWriter) Write(p []byte) (int, error) {
	data := p
	if len(t.tail) > 0 {
		data = append(t.tail, p...)
		t.tail = nil
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if !utf8.FullRune(data[i:]) {
			t.tail = append([]byte(nil), data[i:]...)
			break
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = utf8.AppendRune(out, utf8.RuneError)
		case cleanRune(r) != r:
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
