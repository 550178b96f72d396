package claude

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Install edits the settings in place: the user's keys keep their order
// and spacing, jig's entries are laid out like their neighbours, and
// Uninstall gives back the very bytes there were before.
func TestInstallKeepsTheFile(t *testing.T) {
	for name, file := range map[string]string{
		"hand-ordered, tabs, odd spacing, a statusLine of the user's": "{\n" +
			"\t\"statusLine\" : { \"type\":\"command\",   \"command\": \"ccstatusline --compact\" , \"padding\": 0 },\n" +
			"\t\"model\":\"opus\",\n" +
			"\t\"hooks\":{\n" +
			"\t\t\"Stop\": [ {\"hooks\":[{\"type\":\"command\",\"command\":\"notify-send done\"}]} ],\n" +
			"\t\t\"PostToolUse\": [\n" +
			"\t\t\t{ \"matcher\": \"Write|Edit\", \"hooks\": [ { \"type\": \"command\", \"command\": \"my-formatter\" } ] }\n" +
			"\t\t]\n" +
			"\t},\n" +
			"\t\"permissions\":   {\"allow\": [\"Bash(ls:*)\"], \"defaultMode\": \"acceptEdits\"}\n" +
			"}\n",
		"one line":                   `{"permissions":{"defaultMode":"plan"},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		"four spaces, no hooks":      "{\n    \"model\": \"sonnet\",\n    \"env\": {\n        \"A\": \"1\"\n    }\n}",
		"empty object":               "{}\n",
		"hooks of other events only": "{\n  \"hooks\": {\n    \"Setup\": []\n  }\n}\n",
	} {
		out, changed, _, err := Install([]byte(file), "/opt/jig/bin/jig")
		if err != nil || !changed || !json.Valid(out) {
			t.Fatalf("%s: install: changed %v, %v:\n%s", name, changed, err, out)
		}
		if !strings.Contains(string(out), `"command": "/opt/jig/bin/jig claude hook"`) && !strings.Contains(string(out), `"command":"/opt/jig/bin/jig claude hook"`) {
			t.Errorf("%s: no hook of jig's:\n%s", name, out)
		}
		// what was there before is there still, in its order, byte for byte
		// apart from what jig put between
		if at := notIn(file, string(out)); at >= 0 {
			t.Errorf("%s: install changed the user's bytes from %d on:\n%s", name, at, out)
		}
		back, changed, err := Uninstall(out)
		if err != nil || !changed || !bytes.Equal(back, []byte(file)) {
			t.Errorf("%s: uninstall gave (changed %v, %v)\n%s\nfor\n%s", name, changed, err, back, file)
		}
	}
}

// notIn is where a stops being a subsequence of b (the bytes of a in b,
// in order, others between them), -1 when it is one.
func notIn(a, b string) int {
	j := 0
	for i := 0; i < len(a); i++ {
		for j < len(b) && b[j] != a[i] {
			j++
		}
		if j == len(b) {
			return i
		}
		j++
	}
	return -1
}

// An older jig's entries (a bare "jig", another refresh) are brought up to
// date in place, and a null where a list or the statusLine goes is filled.
func TestInstallUpdatesOldEntries(t *testing.T) {
	old := `{
  "statusLine": {"type": "command", "command": "jig claude statusline", "padding": 1},
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "jig claude hook", "timeout": 10}]}],
    "Notification": null
  }
}`
	out, changed, _, err := Install([]byte(old), "/opt/jig/bin/jig")
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	var got struct {
		StatusLine map[string]any
		Hooks      map[string][]struct {
			Hooks []map[string]any `json:"hooks"`
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.StatusLine["command"] != "/opt/jig/bin/jig claude statusline" || got.StatusLine["refreshInterval"] != 2.0 || got.StatusLine["padding"] != 1.0 {
		t.Errorf("statusLine %v", got.StatusLine)
	}
	for _, ev := range Events {
		n := 0
		for _, g := range got.Hooks[ev] {
			for _, h := range g.Hooks {
				if c, _ := h["command"].(string); isJig(c, "hook") {
					n++
					if c != "/opt/jig/bin/jig claude hook" {
						t.Errorf("%s: %q", ev, c)
					}
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d hooks of jig's\n%s", ev, n, out)
		}
	}
	if strings.Contains(string(out), `"jig claude`) {
		t.Errorf("a bare jig left:\n%s", out)
	}
}
