package gemini

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

const bin = "/opt/jig/bin/jig"

// userSettings is a settings.json as a user keeps it: comments (Gemini CLI
// strips them before it parses), their own hook on an event jig uses, keys
// jig never touches.
const userSettings = `{
    // my settings
    "security": { "auth": { "selectedType": "gemini-api-key" } },
    "hooks": {
        "BeforeTool": [
            { "matcher": "write_file", "hooks": [ { "type": "command", "command": "audit.sh" } ] } /* mine */
        ]
    },
    "model": { "name": "gemini-2.5-flash" }
}
`

// TestInstallExactBytesBack: install adds one group of jig's per event
// (none for AfterModel), each running jig by its path, keeps the user's
// group first and every byte of theirs; a second install changes nothing;
// uninstall gives the file back byte for byte, whatever it started as.
func TestInstallExactBytesBack(t *testing.T) {
	for name, file := range map[string]string{"user's": userSettings, "empty": "", "bare": "{}", "one line": `{"a": 1}`} {
		out, changed, err := Install([]byte(file), bin)
		if err != nil || !changed {
			t.Fatalf("%s: install: changed %v, %v", name, changed, err)
		}
		v, err := hujson.Standardize(bytes.Clone(out))
		if err != nil {
			t.Fatalf("%s: install wrote what Gemini cannot read: %v\n%s", name, err, out)
		}
		var got struct {
			Hooks map[string][]struct {
				Matcher string
				Hooks   []map[string]any
			}
		}
		if err := json.Unmarshal(v, &got); err != nil {
			t.Fatal(err)
		}
		for _, ev := range Events {
			gs := got.Hooks[ev]
			last := gs[len(gs)-1]
			if len(last.Hooks) != 1 || last.Hooks[0]["command"] != bin+" gemini hook" || last.Hooks[0]["timeout"] != 10000.0 ||
				last.Hooks[0]["name"] != "jig" || last.Matcher != "" {
				t.Errorf("%s: %s: %+v", name, ev, gs)
			}
		}
		if _, ok := got.Hooks["AfterModel"]; ok {
			t.Errorf("%s: a hook on AfterModel, which runs per chunk", name)
		}
		if name == "user's" && (got.Hooks["BeforeTool"][0].Matcher != "write_file" || !strings.Contains(string(out), "/* mine */")) {
			t.Errorf("the user's group moved or lost its comment:\n%s", out)
		}
		again, changed, err := Install(out, bin)
		if err != nil || changed || !bytes.Equal(again, out) {
			t.Errorf("%s: a second install changed the file (%v, %v)", name, changed, err)
		}
		back, changed, err := Uninstall(out)
		if err != nil || !changed {
			t.Fatalf("%s: uninstall: %v %v", name, changed, err)
		}
		if want := file; string(back) != want && !(want == "" && string(back) == "{}\n") {
			t.Errorf("%s: uninstall gave back\n%q\nnot\n%q", name, back, want)
		}
	}
}

// TestInstallReplacesOlderJig: a hook of a jig at another path is
// replaced, the user's hooks beside it stay.
func TestInstallReplacesOlderJig(t *testing.T) {
	old, _, err := Install([]byte(userSettings), "/old/jig")
	if err != nil {
		t.Fatal(err)
	}
	out, changed, err := Install(old, bin)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	if strings.Contains(string(out), "/old/jig") || strings.Count(string(out), bin+" gemini hook") != len(Events) ||
		!strings.Contains(string(out), "audit.sh") {
		t.Errorf("after a new path:\n%s", out)
	}
	back, _, _ := Uninstall(out)
	if string(back) != userSettings {
		t.Errorf("uninstall after a new path:\n%s", back)
	}
}

// TestInstallRefusesWhatGeminiCannotRead: a file that is not one JSON
// object (comments aside), a trailing comma, hooks that are not an
// object, an event that is not a list: refused, nothing written.
func TestInstallRefusesWhatGeminiCannotRead(t *testing.T) {
	for _, file := range []string{"[]", "{", `{"a": 1,}`, `{"hooks": []}`, `{"hooks": {"BeforeTool": {}}}`, "nul"} {
		if _, _, err := Install([]byte(file), bin); err == nil {
			t.Errorf("install took %q", file)
		}
	}
	for _, file := range []string{"[]", `{"hooks": 3}`} {
		if _, _, err := Uninstall([]byte(file)); err == nil {
			t.Errorf("uninstall took %q", file)
		}
	}
}

// emptyEvent reports whether the settings, their hooks or one of jig's
// events are empty (or null) in the file: jig's group fills them, and
// uninstall leaves them empty in its own layout ({}), or removes them.
func emptyEvent(file string) bool {
	std, err := hujson.Standardize([]byte(file))
	if err != nil {
		return false
	}
	var v struct {
		Hooks *map[string]json.RawMessage
	}
	var top map[string]json.RawMessage
	json.Unmarshal(std, &top)
	if h, ok := top["hooks"]; len(top) == 0 || ok && emptyObject(h) {
		return true
	}
	json.Unmarshal(std, &v)
	if v.Hooks == nil {
		return false
	}
	for _, ev := range Events {
		if g, ok := (*v.Hooks)[ev]; ok {
			var list []any
			if json.Unmarshal(g, &list) == nil && len(list) == 0 {
				return true
			}
		}
	}
	return false
}

// emptyObject reports whether raw is null or an object with no keys, in
// whatever spacing the file had ({ } is as empty as {}).
func emptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) == 0
}

// FuzzInstall: whatever settings.json holds, install either refuses it or
// writes a file a second install leaves alone and uninstall turns back
// into the same bytes (unless jig's hook was there already, or one of its
// events was an empty list: uninstall removes the event jig filled).
func FuzzInstall(f *testing.F) {
	f.Add(userSettings)
	f.Add(`{"hooks": {"SessionStart": null, "BeforeAgent": [ ]}}`)
	f.Add("{\"hooks\": {\"AfterTool\": [{\"hooks\": [{\"command\": \"'/x y/jig' gemini hook\"}]} // c\n]}}")
	f.Fuzz(func(t *testing.T, file string) {
		out, _, err := Install([]byte(file), bin)
		if err != nil {
			return
		}
		if _, err := hujson.Standardize(bytes.Clone(out)); err != nil {
			t.Fatalf("install wrote what does not parse:\n%s", out)
		}
		if again, changed, err := Install(out, bin); err != nil || changed || !bytes.Equal(again, out) {
			t.Fatalf("second install changed it (%v, %v)", changed, err)
		}
		if strings.Contains(file, "gemini hook") || emptyEvent(file) {
			return // a hook of jig's the file had goes too, or a list jig filled: not the same bytes
		}
		back, _, err := Uninstall(out)
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != file && !(strings.TrimSpace(file) == "" && string(back) == "{}\n") {
			t.Fatalf("uninstall gave back\n%q\nnot\n%q", back, file)
		}
	})
}
