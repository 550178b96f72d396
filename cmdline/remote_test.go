package cmdline

import (
	"slices"
	"strings"
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

// FuzzRemoteCommand: whatever the words, the command line sent holds only
// characters every shell takes literally, and the remote jig reads back
// the same words.
func FuzzRemoteCommand(f *testing.F) {
	f.Add("board", "--jump", `we\'ird'; touch x`)
	f.Add("session", "list", "--json")
	f.Add("", "$(id)", "\x00")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		args := []string{a, b, c}
		cmd := RemoteCommand(args...)
		words := strings.Fields(cmd)
		for _, w := range words[1:] {
			if strings.Trim(w, plainChars) != "" {
				t.Fatalf("%q: a word a shell may read otherwise: %q", args, w)
			}
		}
		if words[1] != RemoteArgs {
			if !slices.Equal(words[1:], args) {
				t.Fatalf("%q sent plain as %q", args, cmd)
			}
			return
		}
		got, err := FromRemote(words)
		if slices.ContainsFunc(args, func(s string) bool { return strings.ContainsRune(s, 0) }) {
			return // an argument never holds a NUL: argv cannot
		}
		if err != nil || !slices.Equal(got[1:], args) {
			t.Fatalf("%q came back as %q, %v", args, got, err)
		}
	})
}
