package opencode

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"jig/status"
)

// The plugin finds a plain session id's switches file without the bridge:
// its PLAIN must say plain exactly where status.SafeName keeps the id.
func TestPluginPlainIsSafeName(t *testing.T) {
	m := regexp.MustCompile(`(?m)^const PLAIN = /(.*)/$`).FindSubmatch(Plugin)
	if m == nil {
		t.Fatal("jig.js has no PLAIN")
	}
	plain := regexp.MustCompile(string(m[1]))
	for _, id := range []string{"ses_dccb1cd55ffexSsLXbHjX4Us3l", "a", "_x", "-x", ".hidden", "a b", "a/b", "ü", "",
		strings.Repeat("a", 200), strings.Repeat("a", 201), "x.y-z_1"} {
		if got, want := plain.MatchString(id), status.SafeName(id) == id; got != want {
			t.Errorf("%q: PLAIN says %v, SafeName keeps it %v", id, got, want)
		}
	}
}

// The plugin imports only Node's own modules (OpenCode loads it without
// its plugin package), and Installed writes jig's path into it once.
func TestPluginStandsAlone(t *testing.T) {
	for _, imp := range regexp.MustCompile(`(?m)^import .* from "([^"]+)"`).FindAllSubmatch(Plugin, -1) {
		if !bytes.HasPrefix(imp[1], []byte("node:")) {
			t.Errorf("jig.js imports %s", imp[1])
		}
	}
	got := Installed(`/opt/my "jig"/jig`)
	if !bytes.Contains(got, []byte(`const INSTALLED_JIG = "/opt/my \"jig\"/jig"`)) || bytes.Count(got, []byte("INSTALLED_JIG =")) != 1 {
		t.Errorf("Installed did not name jig once:\n%s", got[:600])
	}
}
