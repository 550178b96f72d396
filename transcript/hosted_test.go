package transcript

import (
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
