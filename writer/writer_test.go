package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"jig/status"
	"jig/ticket"
	"jig/transcript"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newWriter(t *testing.T, env map[string]string) *Writer {
	t.Helper()
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	return New(dir, func() time.Time { return t0 }, func(k string) string { return env[k] }, "box")
}

var tmux = map[string]string{"TMUX": "/tmp/tmux-1/default,1,0", "TMUX_PANE": "%7", "HOME": "/home/u"}

func fileBytes(t *testing.T, w *Writer, session string) []byte {
	t.Helper()
	data, err := os.ReadFile(w.Dir.SessionPath(session))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestWriteFillsTheEnvironment(t *testing.T) {
	w := newWriter(t, tmux)
	s, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentClaude, AgentDir: "/home/u/.claude",
		SessionFile: "/w/s1.jsonl", Live: []byte(`{"state":"busy","host":"elsewhere","terminals":[{"from":"KITTY_WINDOW_ID","id":"3"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Dir.Read("s1")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	switch {
	case got.Host != "box", got.Agent != status.AgentClaude, got.AgentDir != "/home/u/.claude", got.CWD != wd:
		t.Errorf("host %q agent %q agentDir %q cwd %q: want the adapter's and the environment's", got.Host, got.Agent, got.AgentDir, got.CWD)
	case got.Terminal == nil || *got.Terminal != "%7" || len(got.Terminals) != 1:
		t.Errorf("terminal %v terminals %v: want the environment's tmux pane only", got.Terminal, got.Terminals)
	case got.SessionFile == nil || *got.SessionFile != "/w/s1.jsonl", got.State != status.Busy:
		t.Errorf("sessionFile %v state %q", got.SessionFile, got.State)
	case s.Session != "s1" || s.UpdatedAt.IsZero():
		t.Errorf("Write returned %+v, want the status written", s)
	}
}

func TestWriteKeepSaid(t *testing.T) {
	w := newWriter(t, tmux)
	_, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi, KeepSaid: true,
		Live: []byte(`{"host":"elsewhere","agent":"codex","terminals":[{"from":"KITTY_WINDOW_ID","id":"3"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := w.Dir.Read("s1")
	if got.Host != "elsewhere" || got.Agent != "codex" || got.Terminal == nil || *got.Terminal != "3" {
		t.Errorf("host %q agent %q terminal %v: what stdin said must stand", got.Host, got.Agent, got.Terminal)
	}
	// nobody said them: the environment fills them
	_, err = w.Write(Update{Session: "s2", PID: os.Getpid(), Agent: status.AgentPi, AgentDir: "/a", KeepSaid: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = w.Dir.Read("s2")
	if got.Host != "box" || got.Agent != status.AgentPi || got.AgentDir != "/a" || got.Terminal == nil || *got.Terminal != "%7" {
		t.Errorf("host %q agent %q agentDir %q terminal %v: want the environment's", got.Host, got.Agent, got.AgentDir, got.Terminal)
	}
}

func TestWriteRefusesWhole(t *testing.T) {
	w := newWriter(t, nil)
	if _, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi, Live: []byte(`{"state":"busy"}`)}); err != nil {
		t.Fatal(err)
	}
	before := fileBytes(t, w, "s1")
	for _, tc := range []struct {
		name string
		u    Update
	}{
		{"not an object", Update{Live: []byte(`[1]`)}},
		{"a field of the wrong type", Update{Live: []byte(`{"state":3}`)}},
		{"a state no reader takes", Update{Live: []byte(`{"state":"dancing"}`)}},
		{"no pid", Update{PID: -1}},
		{"an edit's error", Update{Edit: func(s, prev *status.Status) error { return errors.New("no") }}},
		{"a bad transcript", Update{Transcript: fakeSource{err: errors.New("not a session")}}},
	} {
		u := tc.u
		u.Session, u.Agent = "s1", status.AgentPi
		if u.PID == 0 {
			u.PID = os.Getpid()
		}
		_, err := w.Write(u)
		var r *Refused
		if !errors.As(err, &r) {
			t.Errorf("%s: %v, want a *Refused", tc.name, err)
		}
		if r != nil && r.Transcript != (u.Transcript != nil) {
			t.Errorf("%s: Transcript %v", tc.name, r.Transcript)
		}
		if after := fileBytes(t, w, "s1"); string(after) != string(before) {
			t.Errorf("%s: the file changed:\n%s", tc.name, after)
		}
	}
	if _, err := os.Stat(w.cursorPath("s1")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused write saved a cursor: %v", err)
	}
	if _, err := w.Write(Update{PID: 1}); !errors.As(err, new(*Refused)) {
		t.Errorf("no session id: %v, want a *Refused", err)
	}
}

// fakeSource records the cursors it is given and hands out the next.
type fakeSource struct {
	got  *[][]byte
	next []byte
	d    *transcript.Derived
	err  error
}

func (f fakeSource) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	if f.got != nil {
		*f.got = append(*f.got, cursor)
	}
	return f.d, f.next, f.err
}

func TestWriteCursor(t *testing.T) {
	w := newWriter(t, nil)
	var got [][]byte
	tokens := int64(500)
	d := &transcript.Derived{File: "/w/pi.jsonl", Entries: 1, ContextTokens: &tokens}
	write := func(next []byte, err error) error {
		_, werr := w.Write(Update{Session: "a/b", PID: os.Getpid(), Agent: status.AgentPi,
			Transcript: fakeSource{got: &got, next: next, d: d, err: err}})
		return werr
	}
	if err := write([]byte(`{"offset":10}`), nil); err != nil {
		t.Fatal(err)
	}
	s, _ := w.Dir.Read("a/b")
	if s.SessionFile == nil || *s.SessionFile != "/w/pi.jsonl" || s.Context.Tokens == nil || *s.Context.Tokens != 500 {
		t.Errorf("sessionFile %v tokens %v: want the transcript's", s.SessionFile, s.Context.Tokens)
	}
	if err := write(nil, nil); err != nil { // nothing new: the cursor stands
		t.Fatal(err)
	}
	if err := write(nil, fmt.Errorf("pi.jsonl: %w", fs.ErrNotExist)); err != nil {
		t.Errorf("a transcript not written yet: %v, want no error", err)
	}
	if len(got) != 3 || got[0] != nil || string(got[1]) != `{"offset":10}` || string(got[2]) != `{"offset":10}` {
		t.Errorf("cursors given: %q", got)
	}
	fi, err := os.Stat(w.cursorPath("a/b"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("cursor: %v, %v: want a 0600 file", fi, err)
	}
	if err := w.End("a/b"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{w.cursorPath("a/b"), w.Dir.SessionPath("a/b")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("End left %s: %v", p, err)
		}
	}
	// A planted symlink where the cursor goes refuses the write.
	os.MkdirAll(w.Dir.Path(status.CursorsDir), 0o700)
	os.Symlink("/etc/passwd", w.cursorPath("a/b"))
	if err := write(nil, nil); !errors.Is(err, status.ErrSymlink) {
		t.Errorf("a symlink as the cursor: %v, want ErrSymlink", err)
	}
}

func TestWriteEditAndBase(t *testing.T) {
	w := newWriter(t, nil)
	mine := &status.Status{Session: "s1", PID: 1, State: status.Busy}
	var prevSeen *status.Status
	_, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi,
		Base: func(file *status.Status) *status.Status { return mine },
		Edit: func(s, prev *status.Status) error {
			prevSeen = prev
			s.Thinking = new(string)
			*s.Thinking = "high"
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := w.Dir.Read("s1")
	if prevSeen != mine || got.State != status.Busy || got.Thinking == nil || *got.Thinking != "high" {
		t.Errorf("prev %p (want %p), state %q thinking %v", prevSeen, mine, got.State, got.Thinking)
	}
}

func TestWriteOutputsJoin(t *testing.T) {
	w := newWriter(t, nil)
	// Writers at once each build on the one before: no output is lost.
	var wg sync.WaitGroup
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := status.Output{Path: fmt.Sprintf("/w/f%d", i), Action: status.Created, At: t0.Add(time.Duration(i) * time.Second)}
			w := New(w.Dir, w.Now, w.Getenv, w.Host) // one per writer, as processes have
			_, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi, Outputs: []status.Output{o}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, _ := w.Dir.Read("s1")
	if len(got.Outputs) != n || got.Outputs[0].Path != "/w/f7" {
		t.Errorf("outputs %+v: want all %d, newest first", got.Outputs, n)
	}
	// An output said again keeps the action it was said with.
	_, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi,
		Outputs: []status.Output{{Path: "/w/f0", Action: status.Changed, At: t0.Add(time.Minute)}}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = w.Dir.Read("s1")
	if got.Outputs[0].Path != "/w/f0" || got.Outputs[0].Action != status.Changed {
		t.Errorf("outputs[0] %+v: want f0 changed, newest", got.Outputs[0])
	}
}

func TestTicketOverlay(t *testing.T) {
	w := newWriter(t, nil)
	cwd := t.TempDir()
	if err := ticket.Use(w.Dir, cwd, "SHOP-1"); err != nil {
		t.Fatal(err)
	}
	write := func(u Update) *status.Status {
		t.Helper()
		u.Session, u.PID, u.Agent, u.CWD = "s1", os.Getpid(), status.AgentPi, cwd
		if _, err := w.Write(u); err != nil {
			t.Fatal(err)
		}
		s, _ := w.Dir.Read("s1")
		return s
	}
	key := func(s *status.Status) string {
		if s.Ticket == nil {
			return "none"
		}
		return s.Ticket.Key + " from " + s.Ticket.From
	}
	if s := write(Update{Ticket: &Ticket{}}); key(s) != "SHOP-1 from choice" {
		t.Errorf("the folder's choice: %s", key(s))
	}
	if s := write(Update{Ticket: &Ticket{}, Live: []byte(`{"ticket":{"key":"SHOP-2","title":"Said"}}`)}); key(s) != "SHOP-2 from event" || s.Ticket.Title != "Said" {
		t.Errorf("a ticket said live: %s %q", key(s), s.Ticket.Title)
	}
	// said once, it holds for the writes that do not say it
	if s := write(Update{Ticket: &Ticket{}}); key(s) != "SHOP-2 from event" || s.Ticket.Title != "" {
		t.Errorf("a key said before: %s %q, want it held, its title read again", key(s), s.Ticket.Title)
	}
	// unless the writer that said it takes it back
	if s := write(Update{Ticket: &Ticket{TakenBack: "SHOP-2"}}); key(s) != "SHOP-1 from choice" {
		t.Errorf("taken back: %s", key(s))
	}
	if s := write(Update{Ticket: &Ticket{Said: &status.Ticket{Key: "SHOP-3"}}}); key(s) != "SHOP-3 from event" {
		t.Errorf("said outside Live: %s", key(s))
	}
	// a reading made before the lock is used when it fits
	found := &ticket.Found{Key: ticket.Key{Key: "SHOP-3", From: ticket.FromEvent},
		Ticket: &status.Ticket{Key: "SHOP-3", Title: "read before", From: ticket.FromEvent}}
	if s := write(Update{Ticket: &Ticket{Said: &status.Ticket{Key: "SHOP-3"}, Found: found, FoundIn: cwd}}); s.Ticket.Title != "read before" {
		t.Errorf("a fitting reading: %+v", s.Ticket)
	}
	if s := write(Update{Ticket: &Ticket{Said: &status.Ticket{Key: "SHOP-4"}, Found: found, FoundIn: cwd}}); key(s) != "SHOP-4 from event" || s.Ticket.Title != "" {
		t.Errorf("a reading for another key: %+v", s.Ticket)
	}
	if s := write(Update{Live: []byte(`{"ticket":null}`)}); s.Ticket != nil {
		t.Errorf("no overlay: %+v, want the ticket as Live leaves it", s.Ticket)
	}
}

// residentSource keeps its own place: it must never be handed a cursor.
type residentSource struct{ got *[][]byte }

func (r residentSource) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	*r.got = append(*r.got, cursor)
	return &transcript.Derived{Entries: 1}, []byte(`{"offset":1}`), nil
}
func (residentSource) Resident() {}

func TestResidentSourceHasNoCursor(t *testing.T) {
	w := newWriter(t, nil)
	os.MkdirAll(w.Dir.Path(status.CursorsDir), 0o700)
	os.WriteFile(w.cursorPath("s1"), []byte(`{"offset":9}`), 0o600)
	var got [][]byte
	for range 2 {
		if _, err := w.Write(Update{Session: "s1", PID: os.Getpid(), Agent: status.AgentPi, Transcript: residentSource{&got}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] != nil || got[1] != nil {
		t.Errorf("cursors given: %q, want none", got)
	}
	if data, _ := os.ReadFile(w.cursorPath("s1")); string(data) != `{"offset":9}` {
		t.Errorf("the saved cursor became %q: a resident source saves none", data)
	}
}
