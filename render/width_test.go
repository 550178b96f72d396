package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"jig/status"
)

const (
	family   = "👨\u200d👩\u200d👧\u200d👦" // one emoji: four people joined by ZWJ
	thumbs   = "👍🏽"                     // thumbs up and a skin tone modifier
	combined = "e\u0301"                // e and a combining acute accent
)

// A terminal draws each of these as the cells counted here.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"abc", 3},
		{"🚀", 2}, {"⚡", 2}, {"✅", 2},
		{thumbs, 2},
		{family, 2},
		{"🇫🇷", 2},
		{"模型", 4}, {"한국어", 6}, {"ｶﾀｶﾅ", 4},
		{combined, 1}, {"cafe\u0301", 4},
		{"🚀 ship ✅", 10},
	} {
		if got := Width(c.in); got != c.want {
			t.Errorf("Width(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// A cut never splits a grapheme cluster: no half emoji sequence, no mark
// without its letter, no half wide character.
func TestTruncateGraphemes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"🚀🚀🚀", 5, "🚀🚀…"},
		{"🚀🚀🚀", 4, "🚀…"},
		{"⚡⚡ok", 4, "⚡…"},
		{thumbs + thumbs + thumbs, 5, thumbs + thumbs + "…"},
		{family + family, 3, family + "…"},
		{family + family, 2, "…"},
		{"模型大四", 5, "模型…"},
		{"cafe\u0301s", 5, "cafe\u0301s"},
		{"cafe\u0301s", 4, "caf…"},
		{"ca" + combined + "fe", 4, "ca" + combined + "…"},
	} {
		got := Truncate(c.in, c.n)
		if got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if Width(got) > c.n {
			t.Errorf("Truncate(%q, %d) = %q takes %d cells", c.in, c.n, got, Width(got))
		}
	}
}

func TestTruncateStyledGraphemes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"#[fg=green]✅#[default] " + thumbs + " ok", 6, "#[fg=green]✅#[default] " + thumbs + "…#[default]"},
		{"\x1b[32m" + family + "\x1b[39m abc", 4, "\x1b[32m" + family + "\x1b[39m …\x1b[0m"},
	} {
		if got := TruncateStyled(c.in, c.n); got != c.want {
			t.Errorf("TruncateStyled(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestPad(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"ab", 4, "ab  "},
		{"模型", 6, "模型  "},
		{"🚀", 3, "🚀 "},
		{thumbs, 3, thumbs + " "},
		{combined, 3, combined + "  "},
		{"toolong", 3, "toolong"},
	} {
		if got := Pad(c.in, c.n); got != c.want {
			t.Errorf("Pad(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// Columns line up on screen whatever the cells' scripts: each column starts
// at the same cell on every line.
func TestColumns(t *testing.T) {
	var out bytes.Buffer
	tw := NewColumns(&out)
	for _, row := range [][]string{
		{"NAME", "CWD", "END"},
		{"🚀ship", "/src/模型", "x"},
		{thumbs + family, "/src/cafe\u0301", "y"},
		{"plain", "/tmp", "z"},
	} {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", row[0], row[1], row[2])
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"NAME    CWD        END\n" +
		"🚀ship  /src/模型  x\n" +
		thumbs + family + "    /src/cafe\u0301  y\n" +
		"plain   /tmp       z\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	for i, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if w := Width(line[:strings.LastIndexByte(line, ' ')]); w != 18 {
			t.Errorf("line %d: the last column starts at cell %d: %q", i, w+1, line)
		}
	}
}

// A model named with emoji fits --max-width by what the terminal shows.
func TestPresetEmojiFits(t *testing.T) {
	s := &status.Status{State: status.Busy, Model: &status.Model{ID: "🚀⚡✅" + thumbs + family + "模型"},
		Context: status.Context{Percent: ptr(42.0)}}
	for w := 1; w <= 30; w++ {
		var out bytes.Buffer
		if err := Preset(&out, PresetPlain, s, PresetOptions{MaxWidth: w}); err != nil {
			t.Fatal(err)
		}
		line := strings.TrimSuffix(out.String(), "\n")
		if Width(line) > w {
			t.Errorf("w=%d: %d cells: %q", w, Width(line), line)
		}
	}
	var out bytes.Buffer
	Preset(&out, PresetPlain, s, PresetOptions{MaxWidth: 12})
	if want := "● 🚀⚡… 42%\n"; out.String() != want {
		t.Errorf("w=12: got %q, want %q", out.String(), want)
	}
}
