package render

import (
	"bytes"
	"testing"

	"jig/status"
)

func TestForShell(t *testing.T) {
	var out bytes.Buffer
	s := &status.Status{State: status.Busy, Model: &status.Model{ID: "claude-sonnet-4-5"}, Context: status.Context{Percent: ptr(42.0)}, Usage: status.Usage{Cost: ptr(0.31)}}
	if err := Preset(&out, PresetANSI, s, PresetOptions{}); err != nil {
		t.Fatal(err)
	}
	ansi := out.String()
	if want := "\x1b[36m●\x1b[39m claude-sonnet-4-5 \x1b[32m42%\x1b[39m $0.31\x1b[0m\n"; ansi != want {
		t.Fatalf("ansi preset: got %q, want %q", ansi, want)
	}
	for _, c := range []struct{ shell, want string }{
		// A prompt piece: no newline, or fish's prompt takes two lines.
		{ShellBash, "\x01\x1b[36m\x02●\x01\x1b[39m\x02 claude-sonnet-4-5 \x01\x1b[32m\x0242%\x01\x1b[39m\x02 $0.31\x01\x1b[0m\x02"},
		{ShellZsh, "%{\x1b[36m%}●%{\x1b[39m%} claude-sonnet-4-5 %{\x1b[32m%}42%%%{\x1b[39m%} $0.31%{\x1b[0m%}"},
		{ShellFish, "\x1b[36m●\x1b[39m claude-sonnet-4-5 \x1b[32m42%\x1b[39m $0.31\x1b[0m"},
		{"", ansi},
	} {
		if got := ForShell(ansi, c.shell); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.shell, got, c.want)
		}
	}
	// Plain text: nothing to wrap; zsh still doubles %.
	if got := ForShell("● 42% $0.31", ShellZsh); got != "● 42%% $0.31" {
		t.Errorf("zsh plain: %q", got)
	}
	if got := ForShell("● 42% $0.31", ShellBash); got != "● 42% $0.31" {
		t.Errorf("bash plain: %q", got)
	}
}
