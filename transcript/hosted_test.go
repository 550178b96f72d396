package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestShownName(t *testing.T) {
	for in, want := range map[string]string{
		"mcp__github__create_issue": "github/create_issue",
		"mcp__github":               "mcp__github",
		"mcp____x":                  "mcp____x",
		"mcp__s__":                  "mcp__s__",
		"Bash":                      "Bash",
	} {
		if got := ShownName(in); got != want {
			t.Errorf("ShownName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCursorHeadCheck(t *testing.T) {
	h := CursorHead{Kind: "codex", Format: 1, Path: "/a"}
	if err := h.Check("codex", 1, "/a", "Codex"); err != nil {
		t.Errorf("its own cursor: %v", err)
	}
	for _, c := range []struct {
		kind   string
		format int
		path   string
		want   string
	}{
		{"claude", 1, "/a", "not a Claude cursor"},
		{"codex", 2, "/a", "not a Claude cursor"},
		{"codex", 1, "/b", "for another file"},
	} {
		if err := h.Check(c.kind, c.format, c.path, "Claude"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c, err, c.want)
		}
	}
}

// A one-line cursor's head is read as json.Marshal wrote it, whatever its
// path holds, and the state after it is not read.
func TestDecodeHead(t *testing.T) {
	type cursor struct {
		CursorHead
		FilePos
		State any `json:"state"`
	}
	want := CursorHead{Kind: "k", Format: 2, Path: `/w/,"state":{"x"}/a.jsonl`}
	data, err := json.Marshal(cursor{CursorHead: want, FilePos: FilePos{Offset: 7, TailLen: 7}, State: map[string]int{"a": 1}})
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		CursorHead
		FilePos
	}
	if err := DecodeHead(append(data[:len(data)-1:len(data)-1], []byte(`,"broken`)...), &h); err != nil || h.CursorHead != want || h.Offset != 7 {
		t.Errorf("head %+v (%v), want %+v", h, err, want)
	}
	for _, bad := range []string{`{"kind":"k"}`, `{"kind":1,"state":{}}`, `{"kind":"k",,"state":{}}`, `[],"state":`} {
		var h CursorHead
		if DecodeHead([]byte(bad), &h) == nil {
			t.Errorf("%s: decoded %+v", bad, h)
		}
	}
}
