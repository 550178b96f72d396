package conversation

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzBackward: reading a file backwards gives the lines reading it
// forwards gives, newest first, each at its offset, whatever the bytes.
func FuzzBackward(f *testing.F) {
	f.Add([]byte("a\nb\n"), 1)
	f.Add([]byte("\n\n{\"x\":1}\nlast"), 3)
	f.Add([]byte("no newline at all"), 0)
	f.Fuzz(func(t *testing.T, data []byte, stop int) {
		var want []string
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				want = append(want, string(l))
			}
		}
		slices.Reverse(want)
		var got []string
		Backward(bytes.NewReader(data), int64(len(data)), func(l []byte, off int64) bool {
			if !bytes.HasPrefix(data[off:], l) || off > 0 && data[off-1] != '\n' {
				t.Fatalf("line %q at %d is not there", l, off)
			}
			got = append(got, string(l))
			return stop <= 0 || len(got) < stop
		})
		if stop > 0 && len(want) > stop {
			want = want[:stop]
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
