package fast

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/agents"
	"jig/agents/peer"
	"jig/hot"
	"jig/status"
)

// fake is an agent with a hook and a status line, as Claude Code has:
// the lines jig-fast takes for it run these.
var fake = peer.Agent{Agent: agents.Agent{ID: "t-fast", Label: "Fast"}, Name: "t-fast",
	Hook: &peer.Hook{Run: func(peer.Call) ([]byte, error) { return []byte("{}\n"), nil }},
	StatusLine: func(peer.Call, []byte) (*status.Status, error) {
		return &status.Status{Schema: 1, State: "idle"}, nil
	}}

var plain = peer.Agent{Agent: agents.Agent{ID: "t-plain", Label: "Plain"}, Name: "t-plain"}

func init() { peer.MustRegister(fake, plain) }

// TestFastTakes is the table of what jig-fast answers itself and what it
// hands to jig: only the forms it reads whole.
func TestFastTakes(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"JIG_STATE_DIR": filepath.Join(dir, "state"), "JIG_HERDR_REPORTS": "off"}
	e := &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(k string) string { return vars[k] }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}
	for _, c := range []struct {
		line  string
		takes bool
	}{
		{"session for-terminal %3 --preset tmux --max-width 40", true}, // hot.AnswerLine's: TestLineTakes
		{"session for-terminal %3 --jq .state", false},
		{"session list", false},
		{"session", false},
		{"t-fast hook", true},
		{"t-fast hook now", false},
		{"t-fast statusline", true},
		{"t-fast statusline --preset plain --refreshed", true},
		{"t-fast statusline --then true", false},
		{"t-fast statusline %3", false},
		{"t-plain hook", false},
		{"t-plain statusline", false},
		{"demo", false},
		{"--version", false},
	} {
		err := answer(e, strings.Fields(c.line))
		if took := err != hot.ErrPass; took != c.takes {
			t.Errorf("jig-fast %s: answered itself %v (%v), want %v", c.line, took, err, c.takes)
		}
	}
}
