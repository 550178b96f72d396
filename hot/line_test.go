package hot

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLineTakes is the table of what jig-line answers itself and what it
// hands to jig: only the forms it reads whole.
func TestLineTakes(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"JIG_STATE_DIR": filepath.Join(dir, "state"), "JIG_HERDR_REPORTS": "off"}
	e := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(k string) string { return vars[k] }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}
	for _, c := range []struct {
		line  string
		takes bool
	}{
		{"session for-terminal %3", true},
		{"session for-terminal", true},
		{"session for-terminal %3 --preset tmux --max-width 40", true},
		{"session for-terminal --preset=glyph --max-width=12 %1 %2", true},
		{"session for-terminal %3 --json --rate-limits --preset ansi", false}, // flags that exclude each other: jig says so
		{"session for-terminal %3 --preset ansi --rate-limits --shell zsh", true},
		{"session for-terminal %3 --json", true},
		{"session for-terminal %3 --format {{.state}}", true},
		{"session for-terminal %3 --jq .state", false},
		{"session for-terminal %3 -json", false},
		{"session for-terminal %3 --json --json", false},
		{"session for-terminal %3 --json=true", false},
		{"session for-terminal %3 --preset", false},
		{"session for-terminal %3 --preset nope", false},
		{"session for-terminal %3 --max-width 0x10", false},
		{"session for-terminal %3 --max-width -1", false},
		{"session for-terminal %3 --refreshed", false},
		{"session for-terminal --help", false},
		{"session for-terminal -- %3", false},
		{"session list", false},
		{"session", false},
		{"claude hook", false},
		{"claude statusline", false},
		{"--version", false},
	} {
		err := e.AnswerLine(strings.Fields(c.line))
		if took := err != ErrPass; took != c.takes {
			t.Errorf("jig-line %s: answered itself %v (%v), want %v", c.line, took, err, c.takes)
		}
	}
	if err := e.AnswerLine([]string{"session", "for-terminal", ""}); err != ErrPass {
		t.Errorf("an empty id: %v, want it handed to jig", err)
	}
}

// TestMainHandsOn: a line a program beside jig does not take reaches jig as
// it was typed, and its answer is jig's.
func TestMainHandsOn(t *testing.T) {
	var got []string
	e := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	code := Main([]string{"/bin/jig-line", "board", "--once"}, e, e.AnswerLine, func(args []string) error {
		got = args
		return nil
	})
	if code != 0 || strings.Join(got, " ") != "/bin/jig-line board --once" {
		t.Fatalf("exit %d, jig got %q", code, got)
	}
}
