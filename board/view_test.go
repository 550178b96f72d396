package board

import (
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
	v.SetRows([]Row{{Host: "h", Session: "a", Project: "shop", Tools: []ToolName{{"bash", false}, {"read", true}}}})
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
	if !strings.Contains(lines, "› on  bash") || !strings.Contains(lines, "off read") {
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
	for _, b := range []byte("j\x1b[A\x1b[Bk\r\x1bq") {
		if k, ok := r.next(b); ok {
			got = append(got, k)
		}
	}
	if strings.Join(got, " ") != "j up down k enter esc" {
		t.Errorf("keys %q", got)
	}
}
