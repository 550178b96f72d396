package follow

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/herdr/herdr1"
	"jig/status"
)

func getenv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// A fixed terminal: its session's view, cleaned, or a quiet line saying
// there is none; an agent's text never reaches the terminal raw.
func TestFixedTerminal(t *testing.T) {
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	src, err := New("t7", getenv(nil))
	if err != nil {
		t.Fatal(err)
	}
	src.Dir, src.Now = dir, time.Now
	title, lines := src.Frame()
	if title != "jig · terminal t7 · q quits" || strings.Join(lines, "\n") != "no jig session in terminal t7\nwaiting for one…" {
		t.Errorf("no session: %q %q", title, lines)
	}
	term, model := "t7", "evil\x1b]0;pwned\x07"
	s := &status.Status{Schema: 1, Session: "s1", PID: os.Getpid(), State: status.Busy, Terminal: &term,
		Model: &status.Model{ID: model}}
	if _, err := dir.Write(s, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, lines = src.Frame()
	view := strings.Join(lines, "\n")
	if !strings.Contains(view, "evil") || strings.ContainsAny(view, "\x1b\x07") {
		t.Errorf("the view %q: want the model, cleaned", view)
	}
}

// Outside tmux and Herdr, only a terminal given is something to follow.
func TestNowhere(t *testing.T) {
	if !Nowhere("", getenv(nil)) || Nowhere("t7", getenv(nil)) || Nowhere("", getenv(map[string]string{"HERDR_ENV": "1"})) {
		t.Error("Nowhere: want true only for no terminal outside tmux and Herdr")
	}
	if _, err := New("", getenv(map[string]string{"HERDR_ENV": "1", "PATH": t.TempDir()})); !errors.Is(err, herdr1.ErrNotFound) ||
		!strings.Contains(err.Error(), "or name the terminal to follow") {
		t.Errorf("inside Herdr without herdr: %v", err)
	}
}
