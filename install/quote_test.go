package install

import (
	"encoding/json"
	"os/exec"
	"testing"

	"jig/internal/pitest"
)

// quoteCases are paths a user's jig may have.
var quoteCases = []string{
	"/usr/local/bin/jig",
	"/home/me/my tools/jig",
	`/o'neil/"x"/$HOME/` + "`id`" + `/back\slash/#1/jig`,
	"/tab\there/bell\a/del\x7f/jig",
	"/ünïcode/模型/jig",
	"",
}

// shellWord is one word to a real /bin/sh, with nothing expanded.
func TestShellWordInSh(t *testing.T) {
	for _, s := range quoteCases {
		out, err := exec.Command("sh", "-c", "printf %s "+shellWord(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q: sh read %q (%v) from %s", s, out, err, shellWord(s))
		}
	}
}

// luaQuote is a Lua string literal whose value is s, to a real Lua.
func TestLuaQuoteInLua(t *testing.T) {
	lua, err := exec.LookPath("lua5.4")
	if err != nil {
		pitest.Missing(t, "lua5.4 is missing; run .ci/provision")
	}
	for _, s := range quoteCases {
		out, err := exec.Command(lua, "-e", "io.write("+luaQuote(s)+")").Output()
		if err != nil || string(out) != s {
			t.Errorf("%q: lua read %q (%v) from %s", s, out, err, luaQuote(s))
		}
	}
}

// jsonString decodes to s, with nothing a TOML or JS string would take
// differently (no raw control characters, U+2028, U+2029).
func TestJSONString(t *testing.T) {
	for _, s := range append(quoteCases, "a\u2028b\u2029c<&>") {
		q := jsonString(s)
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Errorf("%q: %s decodes to %q (%v)", s, q, back, err)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
				t.Errorf("%q: %s holds %U raw", s, q, r)
			}
		}
	}
}
