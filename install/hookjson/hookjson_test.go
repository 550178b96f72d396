package hookjson

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

var testHooks = Hooks{Agent: "qwen", Events: []string{"SessionStart", "PreToolUse", "Stop"}, Timeout: 10,
	ToolEvents: map[string]bool{"PreToolUse": true}}

func edit(t testing.TB, data []byte, comments bool, change func(f *File) (bool, error)) ([]byte, bool) {
	out, changed, err := Edit(data, comments, change)
	if err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	return out, changed
}

// FuzzInstallUninstall: whatever settings file a user has (with comments,
// for an agent that reads them), one install leaves every byte of it in
// place, a second changes nothing, and uninstall gives back the very bytes
// there were; a file the agent would not read is refused, never
// half-edited.
func FuzzInstallUninstall(f *testing.F) {
	for _, seed := range []string{"", "{}", "{\n  \"a\": 1\n}\n", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		"{\n\t\"hooks\": {\n\t\t\"PreToolUse\": []\n\t},\n\t\"b\": [1, 2]\n}", `{"hooks":null}`, `[1]`, `{"hooks":{"Stop":null}}`} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Add("{\n  // mine\n  \"model\": {\"name\": \"x\"} /* end */\n}\n", true)
	f.Add(`{"hooks": {"Stop": [/* a */ {"hooks": [{"type": "command", "command": "x"}]} // b
]}}`, true)
	f.Fuzz(func(t *testing.T, data string, comments bool) {
		std, _ := hujson.Standardize([]byte(data)) // comments as spaces
		if strings.Contains(data, "jig") || strings.Contains(data, "null") || emptyList(std) || spacedEmpty.Match(std) {
			// jig's own entries already: TestOlderEntriesReplaced. An empty
			// or null hooks object or event list is filled by install and
			// comes back absent, which both agents read as no hooks, and
			// the space inside an empty object jig fills comes back as {}:
			// the tree keeps no mark of what jig filled.
			return
		}
		in := []byte(data)
		out, changed, err := Edit(in, comments, func(f *File) (bool, error) { return f.Install("/opt/jig", testHooks) })
		if err != nil {
			if out != nil {
				t.Fatalf("refused, yet gave %q", out)
			}
			return
		}
		if _, err := Parse(out, comments); !changed || err != nil || !comments && !json.Valid(out) {
			t.Fatalf("install: changed %v, %v:\n%s", changed, err, out)
		}
		if again, changed := edit(t, out, comments, func(f *File) (bool, error) { return f.Install("/opt/jig", testHooks) }); changed || !bytes.Equal(again, out) {
			t.Fatalf("a second install changed:\n%s\nto\n%s", out, again)
		}
		back, changed := edit(t, out, comments, func(f *File) (bool, error) { return f.Uninstall("qwen"), nil })
		if len(bytes.TrimSpace(in)) == 0 {
			in = []byte("{}\n") // an empty file is read as {}
		}
		if !changed || !bytes.Equal(back, in) {
			t.Fatalf("uninstall gave\n%q\nfor\n%q", back, in)
		}
	})
}

// spacedEmpty is an empty object or list with space inside.
var spacedEmpty = regexp.MustCompile(`\{\s+\}|\[\s+\]`)

// emptyList reports whether the settings' hooks are an empty object or
// hold an event with an empty list.
func emptyList(data []byte) bool {
	var s struct {
		Hooks *map[string]json.RawMessage `json:"hooks"`
	}
	json.Unmarshal(data, &s)
	if s.Hooks == nil {
		return false
	}
	if len(*s.Hooks) == 0 {
		return true
	}
	for _, v := range *s.Hooks {
		var l []any
		if json.Unmarshal(v, &l) == nil && len(l) == 0 {
			return true
		}
	}
	return false
}

// An older jig's entry (another path) is replaced in place; another
// agent's jig hook is not touched.
func TestOlderEntriesReplaced(t *testing.T) {
	old := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/jig qwen hook","timeout":10},{"type":"command","command":"jig claude hook"}]}]}}`
	out, _ := edit(t, []byte(old), false, func(f *File) (bool, error) { return f.Install("/new/jig", testHooks) })
	if bytes.Contains(out, []byte("/old/jig")) || bytes.Count(out, []byte("/new/jig qwen hook")) != 3 || !bytes.Contains(out, []byte("jig claude hook")) {
		t.Errorf("%s", out)
	}
}
