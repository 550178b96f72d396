package cmdline

import (
	"slices"
	"testing"
)

func TestRemoteCommandRoundTrips(t *testing.T) {
	if got := RemoteCommand("board", "--jump", "0190a-b.c_d"); got != "jig board --jump 0190a-b.c_d" {
		t.Errorf("plain words go as they are (an older jig reads them): %q", got)
	}
	for _, args := range [][]string{
		{"board", "--jump", `a\'b`},
		{"request", "tool", "bash", "off", "--session", "x'; touch pwned; '"},
		{"board", "--jump", ""},
		{"board", "--jump", "$(id) `id` %self ~ =ls *"},
		{"x", "a b\nc", "ünï"},
	} {
		cmd := RemoteCommand(args...)
		if want := "jig " + RemoteArgs + " "; cmd[:len(want)] != want || len(cmd) == len(want) {
			t.Fatalf("%q: %q", args, cmd)
		}
		got, err := FromRemote([]string{"jig", RemoteArgs, cmd[len("jig "+RemoteArgs+" "):]})
		if err != nil || !slices.Equal(got[1:], args) || got[0] != "jig" {
			t.Errorf("%q came back as %q %v", args, got, err)
		}
	}
	for _, bad := range [][]string{{"jig", RemoteArgs}, {"jig", RemoteArgs, "zz"}, {"jig", RemoteArgs, "6100"[:2]}, {"jig", RemoteArgs, "00", "x"}} {
		if _, err := FromRemote(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	if got, _ := FromRemote([]string{"jig", "board"}); !slices.Equal(got, []string{"jig", "board"}) {
		t.Errorf("other command lines as they are: %q", got)
	}
}
