package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"jig/status"
)

func TestNext(t *testing.T) {
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	now := time.Now()
	write := func(s *status.Status, term string) {
		t.Helper()
		s.Schema, s.PID, s.Host = status.Schema, os.Getpid(), "here"
		s.Terminal, s.Terminals = &term, []status.TerminalID{{From: "HC_TERMINAL_ID", ID: term}}
		if _, err := dir.Write(s, now); err != nil {
			t.Fatal(err)
		}
	}
	write(&status.Status{Session: "s1", State: status.Busy,
		Switches: status.Switches{Tools: map[string]bool{"web": false}, Skills: map[string]bool{"review": true}},
		Recent:   []status.Call{{At: now, Tool: "edit", Outcome: status.OK}, {At: now, Tool: "bash", Outcome: status.OK}},
		ContextDetail: &status.ContextDetail{
			Tools:  []status.ContextItem{{Name: "read"}, {Name: "bash"}, {Name: "grep", Inactive: true}},
			Skills: []status.ContextItem{{Name: "pdf"}},
		}}, "t7")
	write(&status.Status{Session: ":files", State: status.Idle}, "t8") // a word that would read as the answer
	v := Values{Dir: dir, Live: status.Liveness{Host: "here"}, Terminal: "t7"}

	for _, c := range []struct {
		line Line
		want []string
	}{
		{Line{Command: "session for-terminal"}, []string{"t7", "t8"}},
		{Line{Command: "session for-terminal", Args: []string{"t7"}}, nil},
		{Line{Command: "session show"}, []string{"s1"}},
		{Line{Command: "session show", Args: []string{"s1"}}, nil},
		{Line{Command: "request tool"}, []string{"bash", "edit", "grep", "read", "web"}},
		{Line{Command: "request skill"}, []string{"pdf", "review"}},
		{Line{Command: "request tool", Flags: map[string]string{"terminal": "t8"}}, nil},
		{Line{Command: "request tool", Flags: map[string]string{"session": "s1"}}, []string{"bash", "edit", "grep", "read", "web"}},
		{Line{Command: "request tool", Flags: map[string]string{"session": "nope"}}, nil},
		{Line{Command: "request tool", Args: []string{"bash"}}, []string{"on", "off"}},
		{Line{Command: "request tool", Args: []string{"bash=off"}}, nil},
		{Line{Command: "request tool", Args: []string{"bash", "off"}}, nil},
		{Line{Command: "pi show"}, []string{Files}},
		{Line{Command: "pi show", Args: []string{"a.jsonl"}}, nil},
		{Line{Command: "pi sessions", Flag: "cwd"}, []string{Dirs}},
		{Line{Command: "session write", Flag: "transcript"}, []string{Files}},
		{Line{Command: "session for-terminal", Flag: "shell"}, []string{"bash", "zsh", "fish"}},
		{Line{Command: "session for-terminal", Flag: "max-width"}, nil},
		{Line{Command: "ticket use"}, nil},
	} {
		if got := v.Next(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: got %q, want %q", c.line, got, c.want)
		}
	}

	// Outside any terminal, a request names its session or offers nothing;
	// without a state dir, nothing live at all.
	v.Terminal = ""
	if got := v.Next(Line{Command: "request tool"}); got != nil {
		t.Errorf("no terminal: %q", got)
	}
	if got := (Values{}).Next(Line{Command: "session for-terminal"}); got != nil {
		t.Errorf("no state dir: %q", got)
	}
}
