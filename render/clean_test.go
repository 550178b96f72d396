package render

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"
)

// clean_cases.json and clean_rule.txt are shared with herdr/app's JS tests
// (test/clean.test.js): the mods' clean must be this Clean.
const (
	cleanCases = "testdata/clean_cases.json"
	cleanRule  = "testdata/clean_rule.txt"
)

func TestCleanCases(t *testing.T) {
	data, err := os.ReadFile(cleanCases)
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, In, Want string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("%s: only %d cases", cleanCases, len(cases))
	}
	for _, c := range cases {
		if got := Clean(c.In); got != c.Want {
			t.Errorf("%s: Clean(%+q) = %+q, want %+q", c.Name, c.In, got, c.Want)
		}
		if got := Clean(c.Want); got != c.Want {
			t.Errorf("%s: Clean is not idempotent: %+q → %+q", c.Name, c.Want, got)
		}
	}
}

// Bytes that are not UTF-8 cannot be written in JSON: a raw 0x9b is CSI to
// an 8-bit terminal.
func TestCleanInvalidUTF8(t *testing.T) {
	if got := Clean("a\x9b2Jb\xff"); got != "a\ufffd2Jb\ufffd" {
		t.Errorf("Clean = %+q", got)
	}
}

// cleanRuleText lists every code point Clean changes, as ranges.
func cleanRuleText() string {
	var b strings.Builder
	b.WriteString("# Every code point render.Clean and herdr/app's clean change; all others stay.\n")
	b.WriteString("# ? means shown as '?', drop means removed. Surrogates are no runes (clean_cases.json).\n")
	class := func(r rune) string {
		switch out := Clean(string(r)); out {
		case string(r):
			return ""
		case "":
			return "drop"
		default:
			return out
		}
	}
	var ranges []string
	start, prev, cur := rune(0), rune(0), class(0)
	for r := rune(1); r <= unicode.MaxRune+1; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		c := ""
		if r <= unicode.MaxRune {
			c = class(r)
		}
		if c != cur || r != prev+1 || r > unicode.MaxRune {
			if cur != "" {
				ranges = append(ranges, fmt.Sprintf("%04x-%04x %s", start, prev, cur))
			}
			start, cur = r, c
		}
		prev = r
	}
	return b.String() + strings.Join(ranges, "\n") + "\n"
}

func TestCleanRule(t *testing.T) {
	got := cleanRuleText()
	if *update {
		if err := os.WriteFile(cleanRule, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(cleanRule)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./render -update rewrites it; then the JS clean must follow):\n--- got\n%s--- want\n%s", cleanRule, got, want)
	}
}

// formatRanges is Unicode's Cf but the joiners: a Go whose Unicode adds a
// format character says so here.
func TestFormatRangesAreCf(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d
		if isFormat(r) != want {
			t.Errorf("isFormat(%U) = %v, want %v (Unicode %s)", r, !want, want, unicode.Version)
		}
	}
}
