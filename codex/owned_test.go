package codex

import (
	"strings"
	"testing"
)

// codexAppends is what the real Codex 0.169.0 appended to config.toml in
// a first TUI run (after the file's last table, jig's): the screen reader
// check and the user's answer to the model migration question.
const codexAppends = "[tui]\nscreen_reader_detection_done = true\n\n[notice.model_migrations]\n\"gpt-5.5\" = \"gpt-6-sol\"\n"

// TestCodexLinesAfterJigsKept: what Codex writes after jig's entries is
// Codex's: a second install and --uninstall keep every line of it.
func TestCodexLinesAfterJigsKept(t *testing.T) {
	const file = "/h/hooks.json"
	for name, user := range map[string]string{"user's": userConfig + "\n", "none": "", "no newline": `model = "m"`} {
		t.Run(name, func(t *testing.T) {
			h1, c1, _, err := Merge(nil, []byte(user), file, jigBin)
			if err != nil {
				t.Fatal(err)
			}
			written := string(c1) + codexAppends
			h2, c2, _, err := Merge(h1, []byte(written), file, jigBin)
			if err != nil || string(c2) != written {
				t.Fatalf("a second install changed config.toml: %v\n%s", err, c2)
			}
			_, c3, err := Unmerge(h2, c2, file)
			if err != nil {
				t.Fatal(err)
			}
			want := user
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n" // Codex wrote after the newline jig added: it stays
			}
			if string(c3) != want+codexAppends {
				t.Errorf("after uninstall:\n%q\nwant\n%q", c3, want+codexAppends)
			}
		})
	}
}

// TestOlderJigsBlockMigrated: an older jig kept its entries between two
// marker lines, and Codex appended its own tables inside them. Install
// keeps Codex's lines and rewrites only jig's; uninstall leaves Codex's.
func TestOlderJigsBlockMigrated(t *testing.T) {
	const file = "/h/hooks.json"
	h, fresh, _, err := Merge(nil, []byte("model = \"m\"\n"), file, jigBin)
	if err != nil {
		t.Fatal(err)
	}
	var old strings.Builder
	old.WriteString("model = \"m\"\n" + legacyBegin + "\n")
	for _, sp := range specs {
		old.WriteString(`[hooks.state."` + trustKey(file, sp.Label, 0) + "\"]\ntrusted_hash = \"sha256:old\"\n")
	}
	old.WriteString(codexAppends + legacyEnd + "\n")
	_, c, _, err := Merge(h, []byte(old.String()), file, jigBin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c), codexAppends) || strings.Contains(string(c), "sha256:old") || strings.Contains(string(c), legacyEnd) ||
		strings.Count(string(c), "] "+ownMark+"\n") != len(specs) {
		t.Errorf("migrated:\n%s", c)
	}
	if _, c2, _, _ := Merge(h, c, file, jigBin); string(c2) != string(c) {
		t.Errorf("a second install changed it:\n%s", c2)
	}
	_, u, _ := Unmerge(h, []byte(old.String()), file)
	if string(u) != "model = \"m\"\n"+codexAppends {
		t.Errorf("uninstall of the old block:\n%q", u)
	}
	_ = fresh
}

// TestMarkersInStringNotJigs: jig's marker lines inside the user's TOML
// multi-line strings are the user's text: never taken for jig's lines.
func TestMarkersInStringNotJigs(t *testing.T) {
	const file = "/h/hooks.json"
	user := "[profiles.x]\nprompt = \"\"\"\n" + legacyBegin + "\nkeep me\n" + legacyEnd + "\n" +
		`[hooks.state."` + trustKey(file, "stop", 0) + `"] ` + ownMark + "\ntrusted_hash = \"sha256:mine\"\n\"\"\"\nnote = '''\n" +
		legacyBeginNewline + "\n'''\n"
	h, c, _, err := Merge(nil, []byte(user), file, jigBin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(c), user) || strings.Count(string(c), "] "+ownMark+"\n") != len(specs)+1 {
		t.Errorf("install:\n%s", c)
	}
	if _, u, _ := Unmerge(h, c, file); string(u) != user {
		t.Errorf("uninstall:\n%q\nwant\n%q", u, user)
	}
	if _, u, _ := Unmerge(h, []byte(user), file); string(u) != user {
		t.Errorf("uninstall of a file with no jig lines changed it:\n%q", u)
	}
}

// TestCodexKeyInJigsTable: Codex adds `enabled = false` to jig's table
// when the user turns the hook off; uninstall takes jig's hash line and
// its mark only, and the table stays with Codex's key.
func TestCodexKeyInJigsTable(t *testing.T) {
	const file = "/h/hooks.json"
	h, c, _, err := Merge(nil, nil, file, jigBin)
	if err != nil {
		t.Fatal(err)
	}
	stop := `[hooks.state."` + trustKey(file, "stop", 0) + `"] ` + ownMark + "\n"
	hash := trustedHashKey + " = " + tomlString(trustHash("stop", Command(jigBin), HookTimeout)) + "\n"
	withKey := strings.Replace(string(c), stop+hash, stop+hash+"enabled = false\n", 1)
	if withKey == string(c) {
		t.Fatalf("no stop table in:\n%s", c)
	}
	if _, c2, _, _ := Merge(h, []byte(withKey), file, jigBin); string(c2) != withKey {
		t.Errorf("a second install:\n%s", c2)
	}
	_, u, _ := Unmerge(h, []byte(withKey), file)
	if want := `[hooks.state."` + trustKey(file, "stop", 0) + "\"]\nenabled = false\n"; string(u) != want {
		t.Errorf("uninstall:\n%q\nwant\n%q", u, want)
	}
}
