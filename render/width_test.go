package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

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

// Printable ASCII, counted a cell a byte, is counted as uniseg counts it;
// a control character or any other byte goes to uniseg.
func TestWidthOfASCII(t *testing.T) {
	var all []byte
	for c := byte(0); c < 0x80; c++ {
		all = append(all, c)
		for _, s := range []string{string(c), "a" + string(c) + "b", string(c) + "\u0301", "\r" + string(c)} {
			if got, want := Width(s), uniseg.StringWidth(s); got != want {
				t.Errorf("Width(%q) = %d, uniseg %d", s, got, want)
			}
		}
	}
	if got, want := Width(string(all)), uniseg.StringWidth(string(all)); got != want {
		t.Errorf("Width of every ASCII byte = %d, uniseg %d", got, want)
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

// TruncateLeft keeps the end, cut between grapheme clusters; ShortID the
// first 8 characters, with no mark, as git shortens a hash.
func TestTruncateLeftAndShortID(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"/home/ana/src/shop", 18, "/home/ana/src/shop"},
		{"/home/ana/src/shop", 9, "…src/shop"},
		{"/src/模型报告", 6, "…报告"},
		{"/src/模型报告", 5, "…报告"},
		{"/src/" + family + thumbs, 3, "…" + thumbs},
		{"/src/cafe\u0301", 3, "…fe\u0301"},
		{"/src", 1, "…"},
		{"/src", 0, ""},
	} {
		got := TruncateLeft(c.in, c.n)
		if got != c.want {
			t.Errorf("TruncateLeft(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if Width(got) > max(c.n, 0) {
			t.Errorf("TruncateLeft(%q, %d) = %q takes %d cells", c.in, c.n, got, Width(got))
		}
	}
	for in, want := range map[string]string{
		"01a228e5-7c3b-7f1e-9d2a-5b8c4e6f0a13": "01a228e5",
		"s1":                                   "s1",
		"模型报告书设计":                              "模型报告",
	} {
		if got := ShortID(in); got != want {
			t.Errorf("ShortID(%q) = %q, want %q", in, got, want)
		}
	}
}

// Fit narrows the columns in the order given, each only as far as the
// width needs, then cuts what is still too wide.
func TestColumnsFit(t *testing.T) {
	rows := "ID\tMODEL\tCWD\n" +
		"01a228e5-7c3b-7f1e\tclaude-sonnet-4-5\t/home/ana/src/shop\n" +
		"01a229f0-1111-7222\tgpt-5\t/home/ana/src/模型\n"
	narrow := []Narrowing{
		{Column: 0, Cut: func(id string, _ int) string { return ShortID(id) }},
		{Column: 2, Cut: TruncateLeft},
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, "" +
			"ID                  MODEL              CWD\n" +
			"01a228e5-7c3b-7f1e  claude-sonnet-4-5  /home/ana/src/shop\n" +
			"01a229f0-1111-7222  gpt-5              /home/ana/src/模型\n"},
		{60, "" +
			"ID                  MODEL              CWD\n" +
			"01a228e5-7c3b-7f1e  claude-sonnet-4-5  /home/ana/src/shop\n" +
			"01a229f0-1111-7222  gpt-5              /home/ana/src/模型\n"},
		// The id goes to 8 characters, though 2 cells fewer would do.
		{56, "" +
			"ID        MODEL              CWD\n" +
			"01a228e5  claude-sonnet-4-5  /home/ana/src/shop\n" +
			"01a229f0  gpt-5              /home/ana/src/模型\n"},
		// Then the cwd gives up its start, to the cell.
		{40, "" +
			"ID        MODEL              CWD\n" +
			"01a228e5  claude-sonnet-4-5  …a/src/shop\n" +
			"01a229f0  gpt-5              …a/src/模型\n"},
		// Nothing left to narrow: the cwd is gone and the lines are cut.
		{24, "" +
			"ID        MODEL\n" +
			"01a228e5  claude-sonnet…\n" +
			"01a229f0  gpt-5\n"},
	} {
		var out bytes.Buffer
		tw := NewColumns(&out)
		tw.Fit(c.width, narrow...)
		fmt.Fprint(tw, rows)
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("width %d: got\n%s\nwant\n%s", c.width, out.String(), c.want)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if c.width > 0 && Width(line) > c.width {
				t.Errorf("width %d: %q takes %d cells", c.width, line, Width(line))
			}
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

func TestTruncateANSIKeepsEscapesAndHashes(t *testing.T) {
	line := "\x1b[1;33m› ◐ shop ## 12s\x1b[0m"
	if got := TruncateANSI(line, 40); got != line {
		t.Errorf("a line that fits is kept whole: %q", got)
	}
	if got := TruncateANSI(line, 9); got != "\x1b[1;33m› ◐ shop…\x1b[0m" {
		t.Errorf("cut: %q", got)
	}
	if got := TruncateANSI("a##b", 3); got != "a#…" {
		t.Errorf("'#' is one cell each: %q", got)
	}
}
