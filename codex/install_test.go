package codex

import (
	"bytes"
	"strings"
	"testing"
)

const jigBin = "/opt/my tools/jig"

// userHooks is a hooks.json of the user's, in their own formatting.
const userHooks = `{
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "^Bash$",
                "hooks": [ { "type": "command", "command": "audit.sh" } ]
            }
        ],
        "Stop": [],
        "Notify": {"not": "a list Codex reads"}
    },
    "other": true
}
`

const userConfig = `model = "gpt-5.5" # mine
approval_policy = "on-request"

[hooks.state."/elsewhere/hooks.json:stop:0:0"]
trusted_hash = "sha256:00"

[profiles.x]
prompt = """
[hooks.state."fake"]
"""`

func TestMergeAndUnmerge(t *testing.T) {
	for name, in := range map[string][2]string{
		"user's files":  {userHooks, userConfig},
		"none":          {"", ""},
		"empty objects": {"{}", "\n"},
		"hooks empty":   {`{"hooks": {}, "x": [1]}`, "# only a comment\n"},
		"one line":      {`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`, `model = "m"`},
	} {
		t.Run(name, func(t *testing.T) {
			hooks, config := []byte(in[0]), []byte(in[1])
			h1, c1, notes, err := Merge(hooks, config, "/home/ana/.codex/hooks.json", jigBin)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) > 0 {
				t.Errorf("notes %v", notes)
			}
			for _, ev := range Events() {
				if !bytes.Contains(h1, []byte(`"`+ev+`"`)) {
					t.Errorf("no %s hook:\n%s", ev, h1)
				}
			}
			if !bytes.Contains(h1, []byte(`"command": "'/opt/my tools/jig' codex hook"`)) {
				t.Errorf("hooks.json:\n%s", h1)
			}
			if !bytes.HasPrefix(c1, config) || bytes.Count(c1, []byte("trusted_hash = ")) != bytes.Count(config, []byte("trusted_hash = "))+len(specs) {
				t.Errorf("config.toml:\n%s", c1)
			}
			h2, c2, _, err := Merge(h1, c1, "/home/ana/.codex/hooks.json", jigBin)
			if err != nil || !bytes.Equal(h1, h2) || !bytes.Equal(c1, c2) {
				t.Errorf("a second merge changed something: %v\n%s\n%s", err, h2, c2)
			}
			h3, c3, err := Unmerge(h1, c1, "/home/ana/.codex/hooks.json")
			if err != nil {
				t.Fatal(err)
			}
			if len(hooks) == 0 && h3 != nil || len(hooks) > 0 && !bytes.Equal(h3, hooks) {
				t.Errorf("hooks.json after uninstall:\n%s\nwant\n%s", h3, hooks)
			}
			if !bytes.Equal(c3, config) {
				t.Errorf("config.toml after uninstall:\n%q\nwant\n%q", c3, config)
			}
		})
	}
}

// TestMergeKeepsUserText: what the user had stays byte for byte, jig's
// groups come last in each list (so their trust keys do not move the
// user's), and the trust keys name the group's index.
func TestMergeKeepsUserText(t *testing.T) {
	h, c, _, err := Merge([]byte(userHooks), []byte(userConfig), "/h/hooks.json", "/usr/bin/jig")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\n%s", h, c)
	for _, kept := range []string{`                "matcher": "^Bash$",` + "\n" + `                "hooks": [ { "type": "command", "command": "audit.sh" } ]` + "\n            },\n            {\"hooks\": [{",
		`"Stop": [{"hooks": [{"type": "command", "command": "/usr/bin/jig codex hook", "timeout": 10}]}],`,
		`"Notify": {"not": "a list Codex reads"},` + "\n" + `        "SessionStart": [ {"hooks"`, `"other": true`} {
		if !strings.Contains(string(h), kept) {
			t.Errorf("hooks.json lacks %q", kept)
		}
	}
	for _, key := range []string{`[hooks.state."/h/hooks.json:pre_tool_use:1:0"]`, `[hooks.state."/h/hooks.json:stop:0:0"]`, `[hooks.state."/h/hooks.json:session_end:0:0"]`} {
		if !strings.Contains(string(c), key) {
			t.Errorf("config.toml lacks %s", key)
		}
	}
	if !strings.Contains(string(c), "\"\"\"\n[hooks.state.\"/h/hooks.json:session_start:0:0\"] "+ownMarkNewline+"\n") {
		t.Errorf("jig's first table does not follow the file's unterminated last line:\n%s", c)
	}
}

// TestTrustHash pins the hash to what codex app-server's hooks/list said
// for a hook (codex 0.169.0): the e2e test asks the real Codex too.
func TestTrustHash(t *testing.T) {
	if got := trustHash("pre_tool_use", "/usr/bin/true codex hook", 10); got != "sha256:bcdbfdbe5d742f4db392a4c1668f16f644b1b3816e8b68f70cda3ec1e5887856" {
		t.Errorf("hash %s", got)
	}
	if got := trustHash("session_end", "/usr/bin/true codex hook", 3); got != "sha256:b4bc4e7715f43f52a58c92c0c1e7b27d52f8a5526a5a6f2e1fca563a65ac5ff9" {
		t.Errorf("hash %s", got)
	}
}

func TestMergeRefuses(t *testing.T) {
	for name, in := range map[string][2]string{
		"hooks not an object":  {`{"hooks": []}`, ""},
		"list not a list":      {`{"hooks": {"Stop": {}}}`, ""},
		"not JSON":             {`{"hooks": `, ""},
		"an array":             {`[]`, ""},
		"inline hooks.state":   {"", "hooks.state = {}\n"},
		"inline in [hooks]":    {"", "[hooks]\nstate = { a = 1 }\n"},
		"hooks a value":        {"", "hooks = 1\n"},
		"dotted jig key":       {"", `hooks.state."/h/hooks.json:stop:0:0".trusted_hash = "sha256:1"` + "\n"},
		"hooks.state an array": {"", "[[hooks.state]]\n"},
		"ends in a string":     {"", "x = \"\"\"\n"},
	} {
		if _, _, _, err := Merge([]byte(in[0]), []byte(in[1]), "/h/hooks.json", "/usr/bin/jig"); err == nil {
			t.Errorf("%s: merged", name)
		}
	}
	// a trust entry for jig's key already there (Codex's own "trust all"
	// wrote it): left alone, not written twice
	cfg := "[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"" + trustHash("stop", "/usr/bin/jig codex hook", 10) + "\"\n"
	_, c, notes, err := Merge(nil, []byte(cfg), "/h/hooks.json", "/usr/bin/jig")
	if err != nil || len(notes) != 0 || strings.Count(string(c), `stop:0:0"]`) != 1 {
		t.Errorf("existing entry: %v %v\n%s", err, notes, c)
	}
	_, _, notes, _ = Merge(nil, []byte(strings.Replace(cfg, "sha256:", "sha256:0", 1)), "/h/hooks.json", "/usr/bin/jig")
	if len(notes) != 1 {
		t.Errorf("another hash: notes %v", notes)
	}
}

// TestOlderJigReplaced: a group of another jig (another path) is replaced
// in place of being added beside it, and uninstall still gives the
// user's file back.
func TestOlderJigReplaced(t *testing.T) {
	h1, c1, _, _ := Merge([]byte(userHooks), nil, "/h/hooks.json", "/old/jig")
	h2, c2, _, err := Merge(h1, c1, "/h/hooks.json", "/new/jig")
	if err != nil || bytes.Contains(h2, []byte("/old/jig")) || bytes.Contains(c2, []byte(trustHash("stop", "/old/jig codex hook", 10))) {
		t.Fatalf("%v\n%s\n%s", err, h2, c2)
	}
	h3, c3, _ := Unmerge(h2, c2, "/h/hooks.json")
	if string(h3) != userHooks || len(c3) != 0 {
		t.Errorf("after uninstall:\n%s\n%q", h3, c3)
	}
}

func TestIsJigHook(t *testing.T) {
	for cmd, want := range map[string]bool{
		"jig codex hook": true, "/usr/local/bin/jig codex hook": true, "'/opt/my tools/jig' codex hook": true,
		"jig claude hook": false, "notjig codex hook": false, "jig codex": false, "jig codex hook --x": false,
	} {
		if isJigHook(cmd) != want {
			t.Errorf("isJigHook(%q) = %v", cmd, !want)
		}
	}
}
