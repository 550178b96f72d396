package terminal

import (
	"os"
	"reflect"
	"testing"
	"time"

	"jig/status"
)

func TestDetect(t *testing.T) {
	type ids = []status.TerminalID
	tmux := map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%3"}
	tmuxPane := status.TerminalID{From: Tmux, ID: "%3", Instance: "/tmp/tmux-0/default"} // the server's socket
	for _, tc := range []struct {
		name string
		env  map[string]string
		want ids
	}{
		{"nothing", nil, ids{}},
		{"herdr-core", map[string]string{"HC_TERMINAL_ID": "t7", "TERM_PROGRAM": "herdr"}, ids{tid(HerdrCore, "t7")}},
		{"herdr 1", map[string]string{"HERDR_PANE_ID": "w1:p2", "TERM_PROGRAM": "herdr"}, ids{tid(Herdr1, "w1:p2")}},
		{"tmux", tmux, ids{tmuxPane}},
		{"stray TMUX_PANE outside tmux", map[string]string{"TMUX_PANE": "%3"}, ids{}},
		{"kitty", map[string]string{"KITTY_WINDOW_ID": "4", "TERM": "xterm-kitty"}, ids{tid(Kitty, "4")}},
		{"wezterm", map[string]string{"WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm"}, ids{tid(WezTerm, "12")}},
		// Inside tmux the outer terminal's id is stale: tmux wins, the outer stays second.
		{"tmux in wezterm", with(tmux, "WEZTERM_PANE", "12", "TERM_PROGRAM", "tmux"), ids{tmuxPane, tid(WezTerm, "12")}},
		{"tmux in kitty", with(tmux, "KITTY_WINDOW_ID", "4", "TERM_PROGRAM", "tmux", "TERM", "tmux-256color"), ids{tmuxPane, tid(Kitty, "4")}},
		// tmux started in a Herdr terminal: HC_TERMINAL_ID is inherited, TERM_PROGRAM says tmux.
		{"tmux in herdr", with(tmux, "HC_TERMINAL_ID", "t7", "TERM_PROGRAM", "tmux"), ids{tmuxPane, tid(HerdrCore, "t7")}},
		// Without TERM_PROGRAM, multiplexers before emulators.
		{"tmux in herdr, no TERM_PROGRAM", with(tmux, "HC_TERMINAL_ID", "t7"), ids{tid(HerdrCore, "t7"), tmuxPane}},
		{"wezterm in kitty", map[string]string{"KITTY_WINDOW_ID": "4", "WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"}, ids{tid(WezTerm, "12"), tid(Kitty, "4")}},
		// kitty sets TERM but no TERM_PROGRAM: an outer WezTerm's lingers.
		{"kitty in wezterm", map[string]string{"KITTY_WINDOW_ID": "4", "WEZTERM_PANE": "12", "TERM_PROGRAM": "WezTerm", "TERM": "xterm-kitty"}, ids{tid(Kitty, "4"), tid(WezTerm, "12")}},
		{"herdr names both", map[string]string{"HC_TERMINAL_ID": "t7", "HERDR_PANE_ID": "w1:p2", "TERM_PROGRAM": "herdr"}, ids{tid(HerdrCore, "t7"), tid(Herdr1, "w1:p2")}},
		{"herdr 1 with TERM_PROGRAM after tmux", with(tmux, "HERDR_PANE_ID", "w1:p2", "TERM_PROGRAM", "herdr"), ids{tid(Herdr1, "w1:p2"), tmuxPane}},
		// Each host's instance, where it says one.
		{"two kittys", map[string]string{"KITTY_WINDOW_ID": "1", "KITTY_PID": "4242", "TERM": "xterm-kitty"}, ids{{From: Kitty, ID: "1", Instance: "4242"}}},
		{"wezterm's socket", map[string]string{"WEZTERM_PANE": "0", "WEZTERM_UNIX_SOCKET": "/run/user/1/wezterm/gui-sock-7", "TERM_PROGRAM": "WezTerm"},
			ids{{From: WezTerm, ID: "0", Instance: "/run/user/1/wezterm/gui-sock-7"}}},
		{"herdr sessions", map[string]string{"HERDR_PANE_ID": "w1:p1", "HERDR_SOCKET_PATH": "/h/sessions/work/herdr.sock", "HC_TERMINAL_ID": "t1", "HC_SESSION": "work", "TERM_PROGRAM": "herdr"},
			ids{{From: HerdrCore, ID: "t1", Instance: "work"}, {From: Herdr1, ID: "w1:p1", Instance: "/h/sessions/work/herdr.sock"}}},
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

// A reader knows the instances around it, a tmux status line's command
// included: it has $TMUX but no $TMUX_PANE.
func TestInstances(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want map[string]string
	}{
		{nil, map[string]string{}},
		{map[string]string{"TMUX": "/tmp/tmux-0/a,10092,-1"}, map[string]string{Tmux: "/tmp/tmux-0/a"}},
		{map[string]string{"TMUX": "/tmp/tmux-0/b,1,0", "TMUX_PANE": "%0", "KITTY_PID": "7"}, map[string]string{Tmux: "/tmp/tmux-0/b", Kitty: "7"}},
	} {
		if got := Instances(func(k string) string { return tc.env[k] }); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Instances(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

// Two sessions in the %0 of two tmux servers: a reader inside server A's
// status line finds A's, inside B's B's; a reader that knows no server, and
// a file that names none (an older jig's), keep the id alone, as before.
func TestForTerminalTwoServers(t *testing.T) {
	d := &status.Dir{Root: t.TempDir()}
	a, b := "/tmp/tmux-0/a", "/tmp/tmux-0/b"
	now := time.Now()
	for _, s := range []struct{ session, socket string }{{"sess-a", a}, {"sess-b", b}} {
		st := &status.Status{Schema: status.Schema, Session: s.session, PID: os.Getpid(), State: status.Idle,
			Terminals: Detect(func(k string) string { return map[string]string{"TMUX": s.socket + ",1,0", "TMUX_PANE": "%0"}[k] })}
		if _, err := d.Write(st, now); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Second) // B is the newer
	}
	for _, tc := range []struct {
		reader map[string]string
		want   string
	}{
		{map[string]string{"TMUX": a + ",1,-1"}, "sess-a"},
		{map[string]string{"TMUX": b + ",1,-1"}, "sess-b"},
		{nil, "sess-b"}, // no instance known: the newest, as before
		{map[string]string{"TMUX": "/tmp/tmux-0/c,1,-1"}, ""},
	} {
		live := status.Liveness{Instances: Instances(func(k string) string { return tc.reader[k] })}
		got, err := d.ForTerminal("%0", live)
		switch {
		case err != nil:
			t.Fatal(err)
		case tc.want == "" && got != nil:
			t.Errorf("reader %v: found %s in another server's %%0", tc.reader, got.Session)
		case tc.want != "" && (got == nil || got.Session != tc.want):
			t.Errorf("reader %v: found %v, want %s", tc.reader, got, tc.want)
		}
	}
	// A file with no instance (an older writer) matches any reader.
	old := &status.Status{Schema: status.Schema, Session: "old", PID: os.Getpid(), State: status.Idle,
		Terminals: []status.TerminalID{{From: Tmux, ID: "%9"}}}
	if _, err := d.Write(old, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.ForTerminal("%9", status.Liveness{Instances: map[string]string{Tmux: a}}); got == nil || got.Session != "old" {
		t.Errorf("a file without instance: %v", got)
	}
}
