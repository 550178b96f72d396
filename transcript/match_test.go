package transcript

import (
	"errors"
	"testing"

	"jig/status"
)

func TestMatchID(t *testing.T) {
	list := [][2]string{{"0190a7c2", "a.jsonl"}, {"0190b001", "b.jsonl"}, {"77", "c.jsonl"}}
	idFile := func(e [2]string) (string, string) { return e[0], e[1] }
	for arg, want := range map[string]string{"0190a7c2": "a.jsonl", "0190b": "b.jsonl", "7": "c.jsonl"} {
		if got, err := MatchID(arg, "dir", list, idFile); got != want || err != nil {
			t.Errorf("MatchID(%q) = %q, %v; want %q", arg, got, err, want)
		}
	}
	for _, arg := range []string{"0190", "99"} { // two sessions start with it; none does
		if _, err := MatchID(arg, "dir", list, idFile); !errors.Is(err, status.ErrNotFound) {
			t.Errorf("MatchID(%q) = %v, want ErrNotFound", arg, err)
		}
	}
}
