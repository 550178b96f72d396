package replay

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jig/request"
	"jig/status"
)

func newDemo(t *testing.T, env map[string]string) *Demo {
	t.Helper()
	root := t.TempDir()
	dir := &status.Dir{Root: filepath.Join(root, "state")}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := NewDemo(dir, root, func(k string) string { return env[k] }, "box", func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Once replays every entry through the bridge; the session, found by its
// terminal after each, ends as the recorded one did.
func TestOnce(t *testing.T) {
	d := newDemo(t, map[string]string{"HOME": t.TempDir()})
	if d.Terminal != Terminal || d.As == "" {
		t.Errorf("terminal %q as %q: want the demo's own, said so", d.Terminal, d.As)
	}
	var steps []Step
	err := d.Once(func(time.Duration) error { return nil }, func(s Step) error {
		steps = append(steps, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := len(steps) + 1
	if lines != 56 || steps[0].Line != 2 || steps[0].Entry != "model mock-model" {
		t.Fatalf("%d lines replayed, first %+v", lines, steps[0])
	}
	busy, idle := 0, 0
	for _, s := range steps {
		if s.Status.State == status.Busy {
			busy++
		}
		if s.Idle {
			idle++
		}
	}
	if busy == 0 || idle != 5 {
		t.Errorf("%d busy entries, %d turns ended: want some, and 5", busy, idle)
	}
	s := steps[len(steps)-1].Status
	switch {
	case s.Model == nil || s.Model.ID != "mock-reasoner" || s.Model.Name != "Mock Reasoner":
		t.Errorf("model %+v: want the live agent's name for the last model", s.Model)
	case s.Thinking == nil || *s.Thinking != "high", s.State != status.Idle:
		t.Errorf("thinking %v state %q", s.Thinking, s.State)
	case s.Context.Window == nil || *s.Context.Window != 128000 || s.Context.Tokens == nil:
		t.Errorf("context %+v: want the window Pi knows and the transcript's tokens", s.Context)
	case s.Tools != (status.Tools{Active: 3, Total: 4}):
		t.Errorf("tools %+v: want bash off", s.Tools)
	case s.Switches.Tools["bash"] || s.Switches.Skills["demo-notes"] || len(s.Switches.Tools) != 1 || len(s.Switches.Skills) != 1:
		t.Errorf("switches %+v: want bash and demo-notes off", s.Switches)
	case s.Terminal == nil || *s.Terminal != Terminal || s.TerminalFrom == nil || *s.TerminalFrom != "HC_TERMINAL_ID":
		t.Errorf("terminal %v from %v", s.Terminal, s.TerminalFrom)
	case s.Agent != status.AgentPi || s.Host != "box" || s.PID != os.Getpid() || s.CWD != d.project:
		t.Errorf("agent %q host %q pid %d cwd %q", s.Agent, s.Host, s.PID, s.CWD)
	}
	actions := map[string]string{}
	for _, o := range s.Outputs {
		actions[filepath.Base(o.Path)] = o.Action
	}
	if len(actions) != 2 || actions["new.txt"] != status.Created || actions["notes.txt"] != status.Changed {
		t.Errorf("outputs %+v: want new.txt created and notes.txt changed, as the bridge saw them", s.Outputs)
	}
	// The file stays, as the last write left it.
	if kept, err := d.Dir.Read(d.Session); err != nil || kept.Model.ID != "mock-reasoner" {
		t.Errorf("the file after the replay: %v", err)
	}
}

// A pause's error stops the replay where it is.
func TestOnceStops(t *testing.T) {
	d := newDemo(t, map[string]string{"HOME": t.TempDir(), "TMUX": "/tmp/t,1,0", "TMUX_PANE": "%4"})
	if d.Terminal != "%4" || d.As != "" {
		t.Errorf("terminal %q as %q: want the shell's", d.Terminal, d.As)
	}
	stop := errors.New("stop")
	n := 0
	err := d.Once(func(time.Duration) error {
		if n == 3 {
			return stop
		}
		return nil
	}, func(Step) error { n++; return nil })
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("%v after %d entries, want stop after 3", err, n)
	}
}

// Loop starts the session afresh each round and removes its file when
// stopped.
func TestLoop(t *testing.T) {
	d := newDemo(t, map[string]string{"HOME": t.TempDir()})
	stop := errors.New("stop")
	var rounds []int
	var firstOfRound2 *status.Status
	err := d.Loop(func() error {
		if len(rounds) > 0 && rounds[len(rounds)-1] == 2 {
			return stop
		}
		return nil
	}, func(s Step) error {
		if s.Round == 2 && firstOfRound2 == nil {
			firstOfRound2 = s.Status
		}
		rounds = append(rounds, s.Round)
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("%v, want stop", err)
	}
	if len(rounds) != 56 || firstOfRound2 == nil {
		t.Fatalf("%d entries, want a round and one more", len(rounds))
	}
	if len(firstOfRound2.Switches.Tools) != 0 || firstOfRound2.Model.ID != "mock-model" || firstOfRound2.Session == d.Session {
		t.Errorf("round 2 began as %s with switches %+v model %+v: want a session of its own, fresh",
			firstOfRound2.Session, firstOfRound2.Switches, firstOfRound2.Model)
	}
	if left, _ := os.ReadDir(d.Dir.Path(status.SessionsDir)); len(left) != 0 {
		t.Errorf("after a stop, sessions/ holds %v, want nothing", left)
	}
}

// TestLiveDemosAreSessionsOfTheirOwn: three live demos at once are three
// sessions, each with its own id, terminal and project, all found as a
// status bar finds them; a stop ends all three and their files go.
func TestLiveDemosAreSessionsOfTheirOwn(t *testing.T) {
	dir := &status.Dir{Root: t.TempDir()}
	getenv := func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-0/default,1,0"
		}
		if k == "TMUX_PANE" {
			return "%4"
		}
		return ""
	}
	host, _ := os.Hostname()
	demos, err := NewLiveDemos(dir, t.TempDir(), getenv, host, time.Now, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]map[string]string{} // agent → what its steps said
	var steps atomic.Int64              // pause runs beside each, which LoopAll runs one at a time
	stop := errors.New("enough")
	err = LoopAll(demos, func() error {
		if steps.Load() > 60 {
			return stop
		}
		return nil
	}, func(k int, st Step) error {
		steps.Add(1)
		if seen[k] == nil {
			seen[k] = map[string]string{}
		}
		seen[k]["session"], seen[k]["terminal"], seen[k]["cwd"] = st.Status.Session, *st.Status.Terminal, filepath.Base(st.Status.CWD)
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("LoopAll: %v", err)
	}
	wantTerminals := []string{"%4", "jig-demo-2", "jig-demo-3"}
	wantProjects := []string{"project", "shop", "api"}
	ids := map[string]bool{}
	for k := range 3 {
		if seen[k]["terminal"] != wantTerminals[k] || seen[k]["cwd"] != wantProjects[k] {
			t.Errorf("agent %d: %v", k, seen[k])
		}
		ids[seen[k]["session"]] = true
	}
	if len(ids) != 3 {
		t.Errorf("the agents share session ids: %v", seen)
	}
	if entries, _ := os.ReadDir(dir.Path(status.SessionsDir)); len(entries) != 0 {
		t.Errorf("files left after the stop: %v", entries)
	}
}

// TestLiveDemosShowWhatTheBoardIsFor: beside a board, the live demo's
// agents share no prefix of their ids, one waits for the person now and
// then (its bash call, ◐, till the call ends), and a request a reader files
// is taken and answered, as a Pi session with jig's extension does.
func TestLiveDemosShowWhatTheBoardIsFor(t *testing.T) {
	was := requestPoll
	requestPoll = 50 * time.Millisecond
	t.Cleanup(func() { requestPoll = was })
	dir := &status.Dir{Root: t.TempDir()}
	host, _ := os.Hostname()
	demos, err := NewLiveDemos(dir, t.TempDir(), func(string) string { return "" }, host, time.Now, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range demos {
		for _, b := range demos[i+1:] {
			if a.Session[0] == b.Session[0] {
				t.Errorf("%s and %s share a prefix", a.Session, b.Session)
			}
		}
	}
	stop := errors.New("enough")
	var mu sync.Mutex // pause runs beside each, which LoopAll runs one at a time
	var asked, answered bool
	waits := map[int]bool{}
	deadline := time.Now().Add(time.Minute)
	err = LoopAll(demos, func() error {
		mu.Lock()
		done := asked && answered && waits[1]
		mu.Unlock()
		if done || time.Now().After(deadline) {
			return stop
		}
		time.Sleep(5 * time.Millisecond)
		return nil
	}, func(k int, st Step) error {
		mu.Lock()
		defer mu.Unlock()
		if st.Status.Attention != nil {
			waits[k] = waits[k] || st.Status.Attention.Kind == status.AttentionPermission && st.Status.Attention.Tool == "bash"
		}
		if k == 2 && !asked && st.Status.Tools.Total > 0 {
			req := request.New(time.Now())
			req.Tools = map[string]bool{"read": false}
			if _, err := request.Send(dir, st.Status.Session, req); err != nil {
				return err
			}
			asked = true
		}
		if on, ok := st.Status.Switches.Tools["read"]; k == 2 && st.Status.LastRequest != nil && st.Status.LastRequest.OK && ok && !on {
			answered = true
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("LoopAll: %v", err)
	}
	if !waits[1] || waits[0] || waits[2] {
		t.Errorf("the second agent alone waits at its bash call: %v", waits)
	}
	if !asked || !answered {
		t.Errorf("the request was not taken and answered: asked %v answered %v", asked, answered)
	}
}
