package terminal

import (
	"reflect"
	"testing"

	"jig/status"
)

func TestDetect(t *testing.T) {
	type ids = []status.TerminalID
	tmux := map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%3"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want ids
	}{
		{"nothing", nil, ids{}},
		{"herdr-core", map[string]string{"HC_TERMINAL_ID": "t7", "TERM_PROGRAM": "herdr"}, ids{tid(HerdrCore, "t7")}},
		{"herdr 1", map[string]string{"HERDR_PANE_ID": "w1:p2", "TERM_PROGRAM": "herdr"}, ids{tid(Herdr1, "w1:p2")}},
		{"tmux", tmux, ids{tid(Tmux, "%3")}},
		{"stray TMUX_PANE outside tmux", map[string]string{"TMUX_PANE": "%3"}, ids{}},
		{"kitty", map[string]string{"KITTY_WINDOW_ID": "4", "TERM": "xterm-kitty"}, ids{tid(Kitty, "4")}},
		{"wezterm", map[string]string{"WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm"}, ids{tid(WezTerm, "12")}},
		// Inside tmux the outer terminal's id is stale: tmux wins, the outer stays second.
		{"tmux in wezterm", with(tmux, "WEZTERM_PANE", "12", "TERM_PROGRAM", "tmux"), ids{tid(Tmux, "%3"), tid(WezTerm, "12")}},
		{"tmux in kitty", with(tmux, "KITTY_WINDOW_ID", "4", "TERM_PROGRAM", "tmux", "TERM", "tmux-256color"), ids{tid(Tmux, "%3"), tid(Kitty, "4")}},
		// tmux started in a Herdr terminal: HC_TERMINAL_ID is inherited, TERM_PROGRAM says tmux.
		{"tmux in herdr", with(tmux, "HC_TERMINAL_ID", "t7", "TERM_PROGRAM", "tmux"), ids{tid(Tmux, "%3"), tid(HerdrCore, "t7")}},
		// Without TERM_PROGRAM, multiplexers before emulators.
		{"tmux in herdr, no TERM_PROGRAM", with(tmux, "HC_TERMINAL_ID", "t7"), ids{tid(HerdrCore, "t7"), tid(Tmux, "%3")}},
		{"wezterm in kitty", map[string]string{"KITTY_WINDOW_ID": "4", "WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"}, ids{tid(WezTerm, "12"), tid(Kitty, "4")}},
		// kitty sets TERM but no TERM_PROGRAM: an outer WezTerm's lingers.
		{"kitty in wezterm", map[string]string{"KITTY_WINDOW_ID": "4", "WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm", "TERM": "xterm-kitty"}, ids{tid(Kitty, "4"), tid(WezTerm, "12")}},
		{"herdr names both", map[string]string{"HC_TERMINAL_ID": "t7", "HERDR_PANE_ID": "w1:p2", "TERM_PROGRAM": "herdr"}, ids{tid(HerdrCore, "t7"), tid(Herdr1, "w1:p2")}},
		{"herdr 1 with TERM_PROGRAM after tmux", with(tmux, "HERDR_PANE_ID", "w1:p2", "TERM_PROGRAM", "herdr"), ids{tid(Herdr1, "w1:p2"), tid(Tmux, "%3")}},
		{"unknown TERM_PROGRAM", map[string]string{"WEZTERM_PANE": "12", "KITTY_WINDOW_ID": "4", "TERM_PROGRAM": "iTerm.app"}, ids{tid(Kitty, "4"), tid(WezTerm, "12")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Detect(func(k string) string { return tc.env[k] })
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
			in := Innermost(got)
			if (in == nil) != (len(tc.want) == 0) || (in != nil && *in != tc.want[0]) {
				t.Errorf("Innermost = %v", in)
			}
		})
	}
}

func with(base map[string]string, kv ...string) map[string]string {
	m := map[string]string{}
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func tid(from, id string) status.TerminalID { return status.TerminalID{From: from, ID: id} }
