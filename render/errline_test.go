package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCutValues: a value over 64 bytes keeps its first 32 and last 16
// bytes, whole characters, and says how much went; short ones, the words
// around them and an unclosed quote stay as they are.
func TestCutValues(t *testing.T) {
	long := strings.Repeat("7", 100)
	for in, want := range map[string]string{
		"field pid: number " + long + " is not a int":     "field pid: number " + long[:32] + "…(52 bytes cut)…" + long[:16] + " is not a int",
		`state "` + strings.Repeat("é", 40) + `": want`:   `state "` + strings.Repeat("é", 16) + "…(32 bytes cut)…" + strings.Repeat("é", 8) + `": want`,
		`state "` + long + `\"` + long + `" is "short"`:   `state "` + long[:32] + "…(154 bytes cut)…" + long[:16] + `" is "short"`,
		`an "unclosed ` + long:                            `an "unclosed ` + long[:32] + "…(52 bytes cut)…" + long[:16],
		"session write: /w/s.jsonl: not a Pi session: no": "session write: /w/s.jsonl: not a Pi session: no",
		"x" + strings.Repeat("é", 40):                     "x" + strings.Repeat("é", 15) + "…(34 bytes cut)…" + strings.Repeat("é", 8),
		"":                                                "",
	} {
		got := cutValues(in)
		if got != want {
			t.Errorf("cutValues(%.40q…)\n got %q\nwant %q", in, got, want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("cutValues(%.40q…) is not UTF-8", in)
		}
	}
}
