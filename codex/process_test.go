package codex

import (
	"strings"
	"testing"
)

func TestIsTUI(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/x/codex":                        true,
		"/x/codex -s danger-full-access":  true,
		"codex resume 01a2":               true,
		"/x/codex exec --json hi":         false,
		"/x/codex app-server --listen ws": false,
		"node /x/bin/codex":               false,
		"":                                false,
	} {
		if isTUI(strings.Fields(cmd)) != want {
			t.Errorf("isTUI(%q) = %v", cmd, !want)
		}
	}
}

// TestWithoutTerminals: the server's terminal ids are the first TUI's, so
// a session filed under the server gets none; the rest of the
// environment stays.
func TestWithoutTerminals(t *testing.T) {
	env := map[string]string{"TMUX": "/s,1,0", "TMUX_PANE": "%0", "HERDR_PANE_ID": "w1:p1", "HOME": "/h"}
	get := withoutTerminals(func(k string) string { return env[k] })
	if get("TMUX_PANE") != "" || get("HERDR_PANE_ID") != "" || get("HOME") != "/h" {
		t.Errorf("TMUX_PANE %q, HERDR_PANE_ID %q, HOME %q", get("TMUX_PANE"), get("HERDR_PANE_ID"), get("HOME"))
	}
}
