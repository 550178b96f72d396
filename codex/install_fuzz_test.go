package codex

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzInstall: whatever the user's hooks.json and config.toml hold, the
// merge never panics; what it takes it gives back as valid JSON, a second
// merge changes nothing, and uninstall gives back the user's bytes exactly
// (when they held no hook of jig's to begin with).
func FuzzInstall(f *testing.F) {
	f.Add([]byte(userHooks), []byte(userConfig))
	f.Add([]byte(`{}`), []byte(``))
	f.Add([]byte(` { "hooks" : { } } `), []byte("x = 1"))
	f.Add([]byte(`{"hooks":{"Stop":[ ],"SessionEnd":[{"hooks":[]}]},"a":{"b":[1,2,{"c":"\"}"}]}}`), []byte("[a]\nb = '''\n[hooks]\n'''\n"))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"jig codex hook"}]}]}}`), []byte("# jig install codex: end\n"))
	f.Add([]byte(``), []byte("a = \"\"\"\n[hooks.state.\"/h/hooks.json:stop:0:0\"] # jig install codex\ntrusted_hash = \"x\"\n\"\"\"\n[t]\n"))
	f.Add([]byte(``), []byte("[tui]\nx = 1\n# jig install codex: begin (a newline was added before this line)\n[notice]\n# jig install codex: end\n"))
	f.Fuzz(func(t *testing.T, hooks, config []byte) {
		h1, c1, _, err := Merge(hooks, config, "/h/hooks.json", "/usr/bin/jig")
		if err != nil {
			return // refused whole
		}
		if !json.Valid(h1) {
			t.Fatalf("merged hooks.json is not JSON:\n%s", h1)
		}
		h2, c2, _, err := Merge(h1, c1, "/h/hooks.json", "/usr/bin/jig")
		if err != nil || !bytes.Equal(h1, h2) || !bytes.Equal(c1, c2) {
			t.Fatalf("a second merge: %v\n%s\n%s", err, h2, c2)
		}
		h3, c3, err := Unmerge(h1, c1, "/h/hooks.json")
		if err != nil {
			t.Fatalf("uninstall of jig's own install: %v", err)
		}
		if hasJigHook(h3) {
			t.Fatalf("jig's hook left after uninstall:\n%s", h3)
		}
		own := findOwned(config, jigKeys(hooks, "/h/hooks.json"))
		if hasJigHook(hooks) || len(own.tables)+len(own.legacy) > 0 {
			return // jig's own entries were there before: they go too
		}
		if len(bytes.TrimSpace(hooks)) == 0 && h3 != nil || len(bytes.TrimSpace(hooks)) > 0 && !bytes.Equal(h3, hooks) {
			t.Fatalf("hooks.json after uninstall:\n%q\nwant\n%q", h3, hooks)
		}
		if !bytes.Equal(c3, config) {
			t.Fatalf("config.toml after uninstall:\n%q\nwant\n%q", c3, config)
		}
	})
}

// hasJigHook reports whether a hooks.json holds a hook of jig's.
func hasJigHook(data []byte) bool {
	_, hooks, err := hooksObject(data)
	if err != nil || hooks == nil {
		return false
	}
	_, found := removeOneJig(data, hooks)
	return found
}
