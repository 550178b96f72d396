package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeStatus writes a session's status with the real jig, as an agent in
// a terminal would: env names the terminal, this test process stands in for
// the agent's (so the session is live).
func writeStatus(t *testing.T, jig, state, session, body string, env ...string) {
	t.Helper()
	cmd := exec.Command(jig, "session", "write", "--session", session, "--pid", strconv.Itoa(os.Getpid()))
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "JIG_STATE_DIR=" + state}, env...)
	cmd.Stdin = strings.NewReader(body)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jig session write: %v: %s", err, out)
	}
}

// scripts/wezterm/jig.lua, loaded by a real Lua 5.4 with a stand-in wezterm
// module (testdata/wezterm.lua) and driven as WezTerm would drive it
// (testdata/drive.lua): the right status gets the focused pane's cells, jig
// runs at most once per pane per 2 s, a pane without an agent shows nothing,
// and tab titles show each tab's agent (◐ while it waits); with tab_title =
// 'glyph' the glyph goes before the tab's own title, and rate_limits adds
// them to the right status.
func TestWezTermLua(t *testing.T) {
	lua := need(t, "lua5.4")
	jig := buildJig(t)
	state := filepath.Join(t.TempDir(), "state")
	writeStatus(t, jig, state, "sess-7",
		`{"state":"busy","model":{"provider":"anthropic","id":"claude-sonnet-4-5-20250929"},"thinking":"high","context":{"percent":42},"usage":{"cost":1.5}}`,
		"WEZTERM_PANE=7")
	writeStatus(t, jig, state, "sess-8",
		`{"state":"idle","attention":{"kind":"error"},"model":{"id":"gpt-5"},"context":{"percent":91},"rateLimits":{"fiveHour":{"usedPercent":42,"resetsAt":null},"weekly":null}}`,
		"WEZTERM_PANE=8")

	cmd := exec.Command(lua, "wezterm/testdata/drive.lua")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "JIG=" + jig, "JIG_STATE_DIR=" + state}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("lua5.4 drive.lua: %v\n%s", err, out)
	}
	want := `clock: float
right status, pane 7: {fg:Teal}●{reset} claude-sonnet-4-5 high {fg:Green}42%{reset} $1.50
jig runs: 3
jig runs a second later: 3
jig runs 2 s later: 6
right status, pane 9: []
tab 1: [ 1: ● claude-sonnet-4-5 high 42% $1.50 ]
tab 2: [ 2: ◐ error gpt-5 91% ]
tab 3: [ 3: vim ]
right status, pane 8 with rate limits: {fg:Purple}◐{reset} {fg:Purple}error{reset} gpt-5 {fg:Maroon}91%{reset} {fg:Green}5h 42%{reset}
glyph tab 1: [ 1: ● zsh ]
glyph tab 2: [ 2: ◐ zsh ]
glyph tab 3: [ 3: vim ]
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// jig.lua as a WezTerm plugin (plugin/init.lua, apply_to_config) with a jig
// that cannot be started: the stand-in raises as WezTerm's
// run_child_process does, and jig.lua must not: the user's later
// update-status handler still runs every second, the failure is logged
// once, and jig is tried again only after `retry` seconds. With handlers =
// false, the user's own handler places jig's right status and tab title.
func TestWezTermMissingJig(t *testing.T) {
	lua := need(t, "lua5.4")
	jig := buildJig(t)
	state := filepath.Join(t.TempDir(), "state")
	writeStatus(t, jig, state, "sess-7",
		`{"state":"busy","model":{"id":"gpt-5"},"context":{"percent":42}}`, "WEZTERM_PANE=7")
	cmd := exec.Command(lua, "wezterm/testdata/drive_missing.lua")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "JIG=" + jig, "JIG_STATE_DIR=" + state}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("lua5.4 drive_missing.lua: %v\n%s", err, out)
	}
	want := `apply_to_config returns config: true
errors: none; user handler ran 5 times; right status []
tries: 1, warnings: 1
warning: jig: cannot run /nonexistent/jig (Failed to spawn /nonexistent/jig: No such file or directory (os error 2)); the status shows nothing, and jig is tried again every 60 s
tries after the retry time: 2, warnings: 1
handlers registered: false
right status: mine | {fg:Teal}●{reset} gpt-5 {fg:Green}42%{reset}
tab title: ● gpt-5 42%
no agent: nil
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
