package board

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestViewKeepsTheSelectionAcrossRefreshes(t *testing.T) {
	var v View
	v.SetRows([]Row{{Host: "h", Session: "a"}, {Host: "h", Session: "b"}, {Host: "h", Session: "c"}})
	v.Key("j")
	v.Key(KeyDown)
	if v.current().Session != "c" {
		t.Fatalf("selected %q", v.current().Session)
	}
	v.SetRows([]Row{{Host: "h", Session: "c"}, {Host: "h", Session: "a"}}) // reordered, b gone
	if v.current().Session != "c" {
		t.Errorf("the selection did not follow its session: %q", v.current().Session)
	}
	v.SetRows([]Row{{Host: "h", Session: "a"}})
	if v.current().Session != "a" {
		t.Errorf("its session gone, the selection stays in the list: %q", v.current().Session)
	}
	v.Key("k")
	v.Key(KeyUp)
	if v.current().Session != "a" {
		t.Error("moving past the top stays at the top")
	}
}

func TestViewActions(t *testing.T) {
	var v View
	v.SetRows([]Row{{Host: "h", Session: "a", Project: "shop", Tools: []ToolName{{Name: "bash"}, {Name: "read", Off: true}}}})
	if a := v.Key(KeyEnter); a.Kind != "jump" || a.Row.Session != "a" {
		t.Errorf("enter: %+v", a)
	}
	if a := v.Key("r"); a.Kind != "reload" {
		t.Errorf("r: %+v", a)
	}
	if a := v.Key("t"); a.Kind != "" || !v.menu {
		t.Fatalf("t opens the menu: %+v", a)
	}
	lines := strings.Join(v.Lines(80, 24, time.Now()), "\n")
	if !strings.Contains(lines, "› on       bash") || !strings.Contains(lines, "off      read") {
		t.Errorf("menu:\n%s", lines)
	}
	if a := v.Key(KeyEnter); a.Kind != "tool" || a.Tool != "bash" || a.On {
		t.Errorf("enter on bash (on) turns it off: %+v", a)
	}
	v.Key("t")
	v.Key("j")
	if a := v.Key(KeyEnter); a.Tool != "read" || !a.On {
		t.Errorf("enter on read (off) turns it on: %+v", a)
	}
	v.Key("t")
	v.Key(KeyEsc)
	if v.menu {
		t.Error("esc closes the menu")
	}
	if a := v.Key("q"); a.Kind != "quit" {
		t.Errorf("q: %+v", a)
	}
}

func TestKeyReader(t *testing.T) {
	var r keyReader
	var got []string
	for _, b := range []byte("j\x1b[A\x1b[Bk\r\x1bq\x1b[1;5A\x1bOB\x7f\té") {
		got = append(got, r.next(b)...)
	}
	if strings.Join(got, " ") != "j up down k enter esc q up down backspace tab é" {
		t.Errorf("keys %q", got)
	}
	if got := r.next(0x1b); got != nil || !r.pending() {
		t.Fatalf("a lone ESC waits: %q", got)
	}
	if got := r.flush(); len(got) != 1 || got[0] != KeyEsc || r.pending() {
		t.Errorf("a lone ESC flushed is Esc: %q", got)
	}
	if got := r.next('q'); len(got) != 1 || got[0] != "q" {
		t.Errorf("the key after a lone Esc is its own: %q", got)
	}
}

func TestViewFindsWaitsFiltersAndHelps(t *testing.T) {
	var v View
	v.SetRows([]Row{
		{Host: "h", Session: "w1", Project: "shop", Attention: "permission", State: "busy"},
		{Host: "h", Session: "b", Project: "api", State: "busy", Agent: "codex"},
		{Host: "h", Session: "w2", Project: "docs", Attention: "question", State: "busy"},
		{Host: "h", Session: "i", Project: "web", State: "idle", Branch: "feature/login"},
	})
	v.Key("n")
	if v.current().Session != "w2" {
		t.Errorf("n goes to the next wait: %q", v.current().Session)
	}
	v.Key(KeyTab)
	if v.current().Session != "w1" {
		t.Errorf("and round: %q", v.current().Session)
	}
	for _, k := range []string{"/", "l", "o", "g", "x", KeyBackspace} {
		v.Key(k)
	}
	lines := strings.Join(v.Lines(120, 24, time.Now()), "\n")
	if len(v.rows) != 1 || v.current().Session != "i" || !strings.Contains(lines, "filter: log") {
		t.Errorf("a filter by branch keeps web: %d rows\n%s", len(v.rows), lines)
	}
	if a := v.Key("q"); a.Kind != "" || v.filter != "logq" {
		t.Errorf("q while filtering is typed: %+v %q", a, v.filter)
	}
	v.Key(KeyBackspace)
	v.Key(KeyEnter)
	if a := v.Key("q"); a.Kind != "quit" {
		t.Errorf("Enter ends the typing, the filter stays, q quits: %+v", a)
	}
	v.Key(KeyEsc)
	if len(v.rows) != 4 {
		t.Errorf("Esc clears the filter: %d rows", len(v.rows))
	}
	v.Key("?")
	if lines := strings.Join(v.Lines(120, 24, time.Now()), "\n"); !strings.Contains(lines, "the next session that waits") {
		t.Errorf("? shows the keys:\n%s", lines)
	}
	if a := v.Key("q"); a.Kind != "" || v.help {
		t.Errorf("a key closes the keys, and does nothing else: %+v", a)
	}
	v.selected = "h/b"
	if a := v.Key("r"); a.Kind != "" || !strings.Contains(v.message, "codex cannot be reloaded") {
		t.Errorf("no reload where the agent cannot: %+v %q", a, v.message)
	}
}

func TestViewSaysTheAnswerWhenItComes(t *testing.T) {
	var v View
	row := Row{Host: "h", Session: "a", Project: "web2", State: "idle", Agent: "pi",
		Tools: []ToolName{{Name: "grep", Inactive: true}}}
	v.SetRows([]Row{row})
	v.Key("t")
	if lines := strings.Join(v.Lines(120, 24, time.Now()), "\n"); !strings.Contains(lines, "inactive grep") {
		t.Errorf("an inactive tool is marked:\n%s", lines)
	}
	if a := v.Key(KeyEnter); a.Kind != "tool" || !a.On {
		t.Errorf("enter on an inactive tool turns it on: %+v", a)
	}
	a := v.Key("r")
	v.Asked(a.Row, "req-2", a.Answer)
	if !strings.Contains(v.message, "queued: taken at the session's next event") {
		t.Errorf("while it waits: %q", v.message)
	}
	row.Answer = &Answer{ID: "req-1", OK: true, Message: "older"}
	v.SetRows([]Row{row})
	if strings.Contains(v.message, "older") {
		t.Errorf("another request's answer is not this one's: %q", v.message)
	}
	row.Answer = &Answer{ID: "req-3", OK: false, Message: "reload:  not now", Covers: []string{"req-2"}}
	v.SetRows([]Row{row})
	if v.message != "web2 refused: reload: not now" {
		t.Errorf("the answer: %q", v.message)
	}
}

func TestViewColoursAndAnEmptyBoard(t *testing.T) {
	v := View{Colour: true}
	if lines := strings.Join(v.Lines(80, 24, time.Now()), "\n"); !strings.Contains(lines, "jig demo --live --agents 3") {
		t.Errorf("an empty board says what to do:\n%s", lines)
	}
	v.SetRows([]Row{{Host: "h", Session: "w", Project: "shop", Attention: "question", State: "busy"},
		{Host: "h", Session: "i", Project: "web", State: "idle"}})
	lines := v.Lines(80, 24, time.Now())
	if !strings.HasPrefix(lines[3], "\x1b[1;33;7m› ") || !strings.HasPrefix(lines[4], "\x1b[2m  ") {
		t.Errorf("◐ bold yellow and selected in reverse, idle dim: %q", lines[3:5])
	}
	v.Colour = false
	for _, l := range v.Lines(80, 24, time.Now()) {
		if strings.Contains(l, "\x1b") {
			t.Errorf("no colour asked, an escape: %q", l)
		}
	}
}

func TestViewNamesAToolTheFileDoesNot(t *testing.T) {
	var v View
	v.SetRows([]Row{{Host: "h", Session: "c", Project: "shop", Agent: "claude-code", Offered: &Offered{Active: 12, Total: 25}}})
	v.Key("t")
	lines := strings.Join(v.Lines(120, 24, time.Now()), "\n")
	if !v.menu || !strings.Contains(lines, "it offers 12 of 25") || !strings.Contains(lines, "+ names one") {
		t.Fatalf("a menu with no names says how to name one:\n%s", lines)
	}
	if a := v.Key(KeyEnter); a.Kind != "" {
		t.Errorf("enter on no tool: %+v", a)
	}
	for _, k := range []string{"+", "W", "e", "b", "x", KeyBackspace, "F"} {
		v.Key(k)
	}
	if lines := strings.Join(v.Lines(120, 24, time.Now()), "\n"); !strings.Contains(lines, "turn off: WebF") {
		t.Errorf("the name typed:\n%s", lines)
	}
	v.Key(KeyEsc)
	if !v.menu || v.naming != nil {
		t.Error("esc goes back to the list")
	}
	v.Key("+")
	v.Key("R")
	if a := v.Key(KeyEnter); a.Kind != "tool" || a.Tool != "R" || a.On || v.menu {
		t.Errorf("enter asks to turn the named tool off: %+v", a)
	}
}

// FuzzKeys: whatever bytes a terminal sends, the reader and the view take
// them without a panic, each key a name the view knows or one character,
// and a flush leaves nothing waiting.
func FuzzKeys(f *testing.F) {
	f.Add([]byte("j\x1b[A\x1b\x1bq/ab\x7f\r?x+Bash\r"))
	f.Add([]byte("\x1b[1;5;7;9;11;13;15;17A\xe2\x82"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var r keyReader
		v := View{Colour: true}
		v.SetRows([]Row{{Host: "h", Session: "a", Project: "p", Attention: "question", Tools: []ToolName{{Name: "bash"}}},
			{Host: "h", Session: "b", State: "idle"}})
		for _, b := range in {
			keys := r.next(b)
			if len(in)%2 == 0 { // as though each byte came alone, the timer between
				keys = append(keys, r.flush()...)
			}
			for _, k := range keys {
				v.Key(k)
			}
		}
		r.flush()
		if r.pending() {
			t.Fatal("a flush leaves an Esc waiting")
		}
		v.Lines(40, 10, time.Now())
	})
}

func TestViewScrollsToTheSelection(t *testing.T) {
	var v View
	var rows []Row
	for i := range 30 {
		rows = append(rows, Row{Host: "h", Session: fmt.Sprintf("s%02d", i), Project: fmt.Sprintf("p%02d", i), State: "idle"})
	}
	v.SetRows(rows)
	shown := func() string { return strings.Join(v.Lines(80, 12, time.Now()), "\n") }
	if s := shown(); !strings.Contains(s, "› ○  p00") || strings.Contains(s, "p20") || !strings.Contains(s, "more (↑↓ scrolls") {
		t.Fatalf("the top, and how many more:\n%s", s)
	}
	if n := len(v.Lines(80, 12, time.Now())); n > 12 {
		t.Errorf("%d lines in 12", n)
	}
	for range 20 {
		v.Key("j")
	}
	if s := shown(); !strings.Contains(s, "› ○  p20") || strings.Contains(s, "p00") {
		t.Errorf("the window follows the selection down:\n%s", s)
	}
	v.Key("k")
	if s := shown(); !strings.Contains(s, "› ○  p19") || !strings.Contains(s, "p20") {
		t.Errorf("and stays while it is inside:\n%s", s)
	}
	v.Key("g")
	if s := shown(); !strings.Contains(s, "› ○  p00") {
		t.Errorf("g goes back to the top:\n%s", s)
	}
	if got := len(v.Lines(80, 0, time.Now())); got != 33 {
		t.Errorf("no height limit: every row, %d lines", got)
	}
	var empty View
	if len(empty.Lines(80, 1, time.Now())) == 0 {
		t.Error("no rows, a tiny screen")
	}
}
