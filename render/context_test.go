package render

import (
	"os"
	"strings"
	"testing"

	"jig/status"
)

// context_full.txt and context_hostile.txt are shared with herdr/app's JS
// tests: the Context mod must draw the same lines, cleaned the same way.
// JIG_UPDATE_GOLDEN=1 rewrites them.
func TestContextFull(t *testing.T) {
	contextGolden(t, "status_full.json", "context_full.txt")
}

// Escape sequences, a C1 CSI and U+202E in part, tool, skill and file names
// and sources are drawn cleaned.
func TestContextHostile(t *testing.T) {
	contextGolden(t, "status_hostile.json", "context_hostile.txt")
}

func contextGolden(t *testing.T, statusFile, golden string) {
	t.Helper()
	const dir = "../herdr/app/testdata/"
	data, err := os.ReadFile(dir + statusFile)
	if err != nil {
		t.Fatal(err)
	}
	s, err := status.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ContextLines(s.ContextDetail), "\n") + "\n"
	if os.Getenv("JIG_UPDATE_GOLDEN") != "" {
		os.WriteFile(dir+golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(dir + golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

func gridOf(lines []string) string {
	var b strings.Builder
	for _, l := range lines[1 : 1+GridSide] {
		cells := strings.SplitN(l, "   ", 2)[0]
		b.WriteString(strings.ReplaceAll(cells, " ", ""))
	}
	return b.String()
}

func TestGridAlwaysHundredCells(t *testing.T) {
	w := func(n int64) *int64 { return &n }
	for _, d := range []*status.ContextDetail{
		{Window: w(200_000), Tokens: 0},
		{Window: w(200_000), Tokens: 200_000, Parts: parts("a", 100_000, "b", 100_000)},
		{Window: w(1000), Tokens: 5000, Parts: parts("a", 5000)}, // over the window
		{Window: nil, Tokens: 300, Parts: parts("a", 100, "b", 100, "c", 100)},
		{Window: w(0), Tokens: 0},
		{Window: w(100), Tokens: 3, Parts: parts("a", 1, "b", 1, "c", 1, "d", 0)},
	} {
		grid := gridOf(ContextLines(d))
		if n := len([]rune(grid)); n != GridSide*GridSide {
			t.Errorf("%+v: %d cells, want 100", d, n)
		}
	}
}

func TestGridShares(t *testing.T) {
	w := int64(1000)
	d := &status.ContextDetail{Window: &w, Tokens: 500, Parts: parts("a", 250, "b", 250)}
	grid := gridOf(ContextLines(d))
	if a, b, free := strings.Count(grid, "█"), strings.Count(grid, "▓"), strings.Count(grid, FreeGlyph); a != 25 || b != 25 || free != 50 {
		t.Errorf("cells a=%d b=%d free=%d, want 25/25/50", a, b, free)
	}
	// Three equal thirds of a full window: the remainder cell goes to the first.
	d = &status.ContextDetail{Tokens: 300, Parts: parts("a", 100, "b", 100, "c", 100)}
	lines := ContextLines(d)
	grid = gridOf(lines)
	if a, b, c := strings.Count(grid, "█"), strings.Count(grid, "▓"), strings.Count(grid, "▒"); a != 34 || b != 33 || c != 33 {
		t.Errorf("thirds: %d/%d/%d, want 34/33/33", a, b, c)
	}
	if lines[0] != "context 300 tokens (window unknown)" {
		t.Errorf("header %q", lines[0])
	}
	if strings.Contains(strings.Join(lines, "\n"), "free") {
		t.Error("free space listed without a window")
	}
}

func TestNoDetail(t *testing.T) {
	if l := ContextLines(nil); len(l) != 1 || !strings.HasPrefix(l[0], "no context detail yet") {
		t.Errorf("got %q", l)
	}
}

func TestTokensAndTenths(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Tokens(0), "0"}, {Tokens(999), "999"}, {Tokens(1000), "1.0k"}, {Tokens(1250), "1.3k"},
		{Tokens(9949), "9.9k"}, {Tokens(9950), "10k"}, {Tokens(104_230), "104k"},
		{Tokens(999_499), "999k"}, {Tokens(999_500), "1.0M"}, {Tokens(1_250_000), "1.3M"},
		{Tenths(1, 3), "33.3%"}, {Tenths(1, 8), "12.5%"}, {Tenths(5, 0), "?"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func parts(nameTokens ...any) []status.ContextPart {
	var ps []status.ContextPart
	for i := 0; i < len(nameTokens); i += 2 {
		ps = append(ps, status.ContextPart{Name: nameTokens[i].(string), Tokens: int64(nameTokens[i+1].(int))})
	}
	return ps
}

// A part, tool or file name from a status file cannot drive the terminal.
func TestContextLinesClean(t *testing.T) {
	d := &status.ContextDetail{Tokens: 10,
		Parts: []status.ContextPart{{Name: "evil\x1b[2J", Tokens: 10}},
		Files: []status.ContextItem{{Name: "A\nB", Source: "/x\x07", Tokens: 1}}}
	for _, l := range ContextLines(d) {
		if strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("control character in %q", l)
		}
	}
	if got := strings.Join(ContextLines(d), "\n"); !strings.Contains(got, "evil?[2J") || !strings.Contains(got, "A?B") {
		t.Errorf("names not shown cleaned:\n%s", got)
	}
}
