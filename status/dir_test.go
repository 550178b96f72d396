package status

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"JIG_STATE_DIR": "/x/state/", "XDG_STATE_HOME": "/xdg", "HOME": "/h"}, "/x/state"},
		{map[string]string{"XDG_STATE_HOME": "/xdg", "HOME": "/h"}, "/xdg/jig"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/jig"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/jig"},
	} {
		d, err := Locate(func(k string) string { return tc.env[k] })
		if err != nil || d.Root != tc.want {
			t.Errorf("Locate(%v) = %v, %v; want %s", tc.env, d, err, tc.want)
		}
	}
	if _, err := Locate(func(string) string { return "" }); err == nil {
		t.Error("Locate with no HOME: want an error")
	}
}

func TestSafeName(t *testing.T) {
	for id, want := range map[string]string{
		"0190a7c2-5f3e_x.y": "0190a7c2-5f3e_x.y",
		"a_b":               "a_b",
		"a/b c":             "a_b_c~",
		"../../etc/passwd":  "_.._.._etc_passwd~",
		"":                  "_~",
		".":                 "_.~",
		"..":                "_..~",
		".hidden":           "_.hidden~",
		"é":                 "_~",
		"a\x00b":            "a_b~",
	} {
		got := SafeName(id)
		if strings.HasSuffix(want, "~") {
			// replaced characters: the name ends in '~' and a hash
			if !strings.HasPrefix(got, want) || len(got) != len(want)+16 {
				t.Errorf("SafeName(%q) = %q, want %q and a hash", id, got, want)
			}
		} else if got != want {
			t.Errorf("SafeName(%q) = %q, want %q", id, got, want)
		}
	}
	long := strings.Repeat("x", 300)
	if a, b := SafeName(long), SafeName(long+"y"); a == b || len(a) > maxName || len(b) > maxName {
		t.Errorf("long ids: %q and %q", a, b)
	}
}

// Ids that differ only in characters a file name cannot hold get different
// names, and none takes a plain id's name: the defect was "a/b" and "a b"
// sharing a_b.json, the second session inheriting the first's data.
func TestSafeNameNoCollision(t *testing.T) {
	seen := map[string]string{}
	for _, id := range []string{"a_b", "a/b", "a b", "a:b", "a\x00b", "%3", "_3", "w1:p2", "w1_p2", "a_b~0"} {
		n := SafeName(id)
		if other, ok := seen[n]; ok {
			t.Errorf("%q and %q share the name %q", id, other, n)
		}
		seen[n] = id
	}
}

// FuzzSafeName: whatever the id, the name stays in its folder: one path
// element, not the folder or its parent, not a hidden (temp) file, short
// enough for a file system, and the same id always gives the same name. A
// name holds '~' exactly when the id was not its own name, so a plain id
// never meets a replaced one.
func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"", ".", "..", "a/b", "/", "\x00", "..\\..", strings.Repeat("é", 200), "%3", "w1:p2", "a_b"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, id string) {
		name := SafeName(id)
		if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
			t.Fatalf("SafeName(%q) = %q", id, name)
		}
		if len(name) > maxName || !utf8.ValidString(name) {
			t.Fatalf("SafeName(%q) = %q: too long or not UTF-8", id, name)
		}
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' || r == '~') {
				t.Fatalf("SafeName(%q) = %q holds %q", id, name, r)
			}
		}
		if plain := name == id; plain == strings.Contains(name, "~") {
			t.Fatalf("SafeName(%q) = %q: plain %v but '~' %v", id, name, plain, !plain)
		}
		d := &Dir{Root: root}
		p := d.SessionPath(id)
		if filepath.Dir(p) != d.Path(SessionsDir) || filepath.Base(p) != name+".json" {
			t.Fatalf("SessionPath(%q) = %s escapes or renames", id, p)
		}
		if SafeName(id) != name {
			t.Fatalf("SafeName(%q) not stable", id)
		}
	})
}

// withUmask runs f under a umask; tests using it do not run in parallel.
func withUmask(t *testing.T, mask int, f func()) {
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	f()
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestWriteModesUnderUmask000(t *testing.T) {
	d := &Dir{Root: filepath.Join(t.TempDir(), "state")}
	withUmask(t, 0, func() {
		s := testStatus("s1", os.Getpid(), "t7")
		if _, err := d.Write(s, time.Now()); err != nil {
			t.Fatal(err)
		}
	})
	for _, p := range []string{d.Root, d.Path(SessionsDir), d.Path(TerminalsDir), d.Path(TerminalsDir, "t7"), d.Path(TerminalsDir, indexedDir)} {
		if m := mode(t, p); m != 0o700 {
			t.Errorf("%s: mode %o, want 700", p, m)
		}
	}
	for _, p := range []string{d.SessionPath("s1"), d.Path(TerminalsDir, "t7", "s1"), d.Path(TerminalsDir, indexedDir, "s1")} {
		if m := mode(t, p); m != 0o600 {
			t.Errorf("%s: mode %o, want 600", p, m)
		}
	}
}

func TestEnsureTightensReadableAndRefusesWritable(t *testing.T) {
	root := t.TempDir()
	d := &Dir{Root: filepath.Join(root, "state")}
	if err := os.MkdirAll(d.Path(SessionsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(d.Root, 0o755)
	if err := d.Check(SessionsDir); err != nil {
		t.Errorf("a folder others may read is readable: %v", err)
	}
	if err := d.Ensure(SessionsDir); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, d.Path(SessionsDir)); m != 0o700 {
		t.Errorf("Ensure left mode %o", m)
	}
	os.Chmod(d.Path(SessionsDir), 0o733)
	for name, err := range map[string]error{"Check": d.Check(SessionsDir), "Ensure": d.Ensure(SessionsDir)} {
		if !errors.Is(err, ErrUnsafeDir) {
			t.Errorf("%s of a folder others may write: %v, want ErrUnsafeDir", name, err)
		}
	}
	if os.Getuid() == 0 {
		os.Chmod(d.Path(SessionsDir), 0o700)
		os.Chown(d.Root, 4242, -1)
		if err := d.Check(); !errors.Is(err, ErrUnsafeDir) || !strings.Contains(err.Error(), "owned by uid 4242") {
			t.Errorf("foreign-owned dir: %v", err)
		}
	}
}

func TestWriteOnlyWhenChanged(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := testStatus("s1", os.Getpid(), "t7")
	if wrote, err := d.Write(s, t0); !wrote || err != nil {
		t.Fatalf("first write: %v %v", wrote, err)
	}
	fi1, _ := os.Stat(d.SessionPath("s1"))
	s2 := testStatus("s1", os.Getpid(), "t7")
	s2.StartedAt = time.Time{} // a writer that does not repeat it keeps it
	if wrote, err := d.Write(s2, t0.Add(time.Minute)); wrote || err != nil {
		t.Fatalf("same content: wrote %v, %v", wrote, err)
	}
	fi2, _ := os.Stat(d.SessionPath("s1"))
	if !os.SameFile(fi1, fi2) {
		t.Error("unchanged content replaced the file")
	}
	if !s2.UpdatedAt.Equal(t0) || !s2.StartedAt.Equal(t0) {
		t.Errorf("unchanged: updatedAt %v startedAt %v, want %v", s2.UpdatedAt, s2.StartedAt, t0)
	}
	s3 := testStatus("s1", os.Getpid(), "t7")
	s3.State = Busy
	if wrote, err := d.Write(s3, t0.Add(time.Minute)); !wrote || err != nil {
		t.Fatalf("changed: %v %v", wrote, err)
	}
	got, err := d.Read("s1")
	if err != nil || got.State != Busy || !got.UpdatedAt.Equal(t0.Add(time.Minute)) || !got.StartedAt.Equal(t0) {
		t.Errorf("after change: %+v %v", got, err)
	}
}

// TestWriteNewProcess: a session taken over by another process (resumed
// after a crash) gets a new startedAt, or it would look like a reused pid.
func TestWriteNewProcess(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	t0 := time.Now().Add(-time.Hour)
	old := testStatus("s1", 999999999, "t7")
	if _, err := d.Write(old, t0); err != nil {
		t.Fatal(err)
	}
	resumed := testStatus("s1", os.Getpid(), "t7")
	resumed.StartedAt = old.StartedAt // what a merge over the old file carries
	now := time.Now()
	if _, err := d.Write(resumed, now); err != nil {
		t.Fatal(err)
	}
	got, err := d.Read("s1")
	if err != nil || !got.StartedAt.Equal(now.UTC()) {
		t.Fatalf("startedAt %v, want %v (%v)", got.StartedAt, now.UTC(), err)
	}
	if s, _ := d.ForTerminal("t7", Liveness{}); sessionOf(s) != "s1" {
		t.Error("the resumed session is not live")
	}
	// A writer that says no startedAt at all: a new process still starts
	// the file anew, it does not inherit the dead one's start.
	if _, err := d.Write(testStatus("s2", 999999999, "t8"), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(testStatus("s2", os.Getpid(), "t8"), now); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Read("s2"); err != nil || !got.StartedAt.Equal(now.UTC()) {
		t.Errorf("no startedAt given: %v, want %v (%v)", got.StartedAt, now.UTC(), err)
	}
	if s, _ := d.ForTerminal("t8", Liveness{}); sessionOf(s) != "s2" {
		t.Error("a new process that gave no startedAt is not live")
	}
}

func TestWriteRefusesSymlink(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	if err := d.Ensure(SessionsDir); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("precious"), 0o644)
	os.Symlink(target, d.SessionPath("s1"))
	_, err := d.Write(testStatus("s1", 1, "t7"), time.Now())
	if !errors.Is(err, ErrSymlink) {
		t.Errorf("write over a symlink: %v, want ErrSymlink", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "precious" {
		t.Errorf("target changed: %q", data)
	}
	if _, err := d.Read("s1"); !errors.Is(err, ErrSymlink) {
		t.Errorf("read through a symlink: %v, want ErrSymlink", err)
	}
	// A symlink planted as a marker is not followed either.
	os.Remove(d.SessionPath("s1"))
	os.MkdirAll(d.Path(TerminalsDir, "t7"), 0o700)
	os.Symlink(target, d.Path(TerminalsDir, "t7", "s1"))
	d.Write(testStatus("s1", 1, "t7"), time.Now())
	if data, _ := os.ReadFile(target); string(data) != "precious" {
		t.Errorf("target changed through a marker: %q", data)
	}
}

func TestForTerminalIndex(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	live := Liveness{Host: "here"}
	t0 := time.Now()
	write := func(s *Status, at time.Time) {
		t.Helper()
		s.Host = "here"
		if _, err := d.Write(s, at); err != nil {
			t.Fatal(err)
		}
	}
	if s, err := d.ForTerminal("t7", live); s != nil || err != nil {
		t.Fatalf("empty dir: %v %v", s, err)
	}
	write(testStatus("a", os.Getpid(), "t7", "%3"), t0)
	write(testStatus("b", os.Getpid(), "t7"), t0.Add(time.Second))
	write(testStatus("dead", 999999999, "t7"), t0.Add(2*time.Second))
	for id, want := range map[string]string{"t7": "b", "%3": "a", "t8": ""} {
		s, err := d.ForTerminal(id, live)
		if err != nil {
			t.Fatal(err)
		}
		if got := sessionOf(s); got != want {
			t.Errorf("ForTerminal(%s) = %q, want %q", id, got, want)
		}
	}
	// "%3" and "_3" share an index folder; each finds only its own.
	write(testStatus("c", os.Getpid(), "_3"), t0.Add(3*time.Second))
	if s, _ := d.ForTerminal("%3", live); sessionOf(s) != "a" {
		t.Errorf("%%3 found %q", sessionOf(s))
	}
	if s, _ := d.ForTerminal("_3", live); sessionOf(s) != "c" {
		t.Errorf("_3 found %q", sessionOf(s))
	}
	// c leaves _3: a's marker in the shared folder stays.
	write(testStatus("c", os.Getpid(), "t9"), t0.Add(4*time.Second))
	if s, _ := d.ForTerminal("%3", live); sessionOf(s) != "a" {
		t.Errorf("after c moved, %%3 found %q", sessionOf(s))
	}
	// A file no index covers (another writer) is found; so is one when
	// there is no index at all.
	foreign := testStatus("f", os.Getpid(), "t42")
	foreign.Normalize()
	foreign.UpdatedAt, foreign.StartedAt = t0, t0
	data, _ := Encode(foreign)
	os.WriteFile(d.SessionPath("f"), data, 0o600)
	if s, _ := d.ForTerminal("t42", live); sessionOf(s) != "f" {
		t.Errorf("unindexed file: found %q", sessionOf(s))
	}
	os.RemoveAll(d.Path(TerminalsDir))
	if s, _ := d.ForTerminal("t7", live); sessionOf(s) != "b" {
		t.Errorf("no index: found %q", sessionOf(s))
	}
}

// TestIndexStamp: after a jig write the index is stamped fresh and readers
// skip the listing; a file from another writer makes it stale (and is found
// by listing) until the next jig write indexes it.
func TestIndexStamp(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	live := Liveness{}
	if _, err := d.Write(testStatus("a", os.Getpid(), "t1"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if !d.fresh() {
		t.Fatal("not fresh after a write")
	}
	foreign := testStatus("f", os.Getpid(), "t2")
	foreign.Normalize()
	foreign.StartedAt, foreign.UpdatedAt = time.Now(), time.Now()
	data, _ := Encode(foreign)
	time.Sleep(20 * time.Millisecond) // past the file system's clock tick
	if err := WriteFileAtomic(d.SessionPath("f"), data); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(d.SessionPath("junk"), []byte("{"), 0o600)
	if d.fresh() {
		t.Fatal("fresh after a foreign write")
	}
	if s, _ := d.ForTerminal("t2", live); sessionOf(s) != "f" {
		t.Errorf("stale index: found %q", sessionOf(s))
	}
	// The next jig write indexes f and stamps; junk stays uncovered.
	if _, err := d.Write(testStatus("b", os.Getpid(), "t3"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if !d.fresh() {
		t.Fatal("not fresh after repair")
	}
	if _, err := os.Lstat(d.Path(TerminalsDir, "t2", "f")); err != nil {
		t.Errorf("foreign file not indexed: %v", err)
	}
	if s, _ := d.ForTerminal("t2", live); sessionOf(s) != "f" {
		t.Errorf("fresh index: found %q", sessionOf(s))
	}
	// Removing a session keeps the stamp fresh.
	if err := d.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if !d.fresh() {
		t.Error("not fresh after Remove")
	}
}

func TestGC(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	live := Liveness{Host: "here"}
	now := time.Now()
	for _, s := range []*Status{
		testStatus("alive", os.Getpid(), "t1"),
		testStatus("dead", 999999999, "t1", "t2"),
		testStatus("elsewhere", 999999999, "t3"),
	} {
		s.Host = "here"
		if s.Session == "elsewhere" {
			s.Host = "there"
		}
		if _, err := d.Write(s, now); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(d.SessionPath("broken"), []byte("{"), 0o600)
	os.WriteFile(d.Path(TerminalsDir, "t1", "ghost"), nil, 0o600)
	// a file a crash left empty: written before the machine booted
	os.WriteFile(d.SessionPath("crashed"), nil, 0o600)
	boot, knowsBoot := bootTime()
	os.Chtimes(d.SessionPath("crashed"), boot.Add(-time.Minute), boot.Add(-time.Minute))
	c, err := d.GC(live, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	skipped, leftovers := 1, 1
	if !knowsBoot {
		skipped, leftovers = 2, 0
	}
	if len(c.Sessions) != 1 || c.Sessions[0] != "dead" || c.Markers != 1 || len(c.Skipped) != skipped || c.Leftovers != leftovers {
		t.Errorf("GC = %+v", c)
	}
	for p, want := range map[string]bool{
		d.SessionPath("crashed"): !knowsBoot,
		d.SessionPath("alive"):   true, d.SessionPath("elsewhere"): true, d.SessionPath("broken"): true,
		d.SessionPath("dead"): false, d.Path(TerminalsDir, "t2"): false, d.Path(TerminalsDir, "t1", "ghost"): false,
		d.Path(TerminalsDir, "t1", "alive"): true, d.Path(TerminalsDir, "t3", "elsewhere"): true,
	} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
}

func TestProcessAlive(t *testing.T) {
	self := os.Getpid()
	if !ProcessAlive(self, time.Now(), "") {
		t.Error("this process is not alive")
	}
	if !ProcessAlive(self, time.Time{}, "") {
		t.Error("unknown startedAt: want alive")
	}
	if ProcessAlive(999999999, time.Now(), "") || ProcessAlive(0, time.Now(), "") || ProcessAlive(-1, time.Now(), "") {
		t.Error("no such process is alive")
	}
	// A session that started long before this process: its pid was reused.
	// Only Linux tells jig when a process started.
	if runtime.GOOS == "linux" && ProcessAlive(self, time.Now().Add(-24*365*time.Hour), "") {
		t.Error("pid reuse not detected")
	}
	if runtime.GOOS == "linux" {
		id := ProcessIdentity(self)
		if id == "" {
			t.Fatal("no identity for this process")
		}
		// The wall clock jumped forward since the session started (NTP, a VM
		// or WSL waking up): startedAt now looks older than the process, yet
		// the identity the writer recorded still says it is the same one.
		if !ProcessAlive(self, time.Now().Add(-24*365*time.Hour), id) {
			t.Error("a clock jump made the live session dead")
		}
		if ProcessAlive(self, time.Now(), id+"0") {
			t.Error("another process's identity passed for this one")
		}
	}
	l := Liveness{Host: "here"}
	s := &Status{PID: self, StartedAt: time.Now(), Host: "there"}
	if l.Alive(s) || l.Local(s) {
		t.Error("another host's session is live here")
	}
	s.Host = ""
	if !l.Alive(s) {
		t.Error("a session naming no host is judged by its pid")
	}
}

func testStatus(session string, pid int, terms ...string) *Status {
	s := &Status{Session: session, PID: pid, CWD: "/src"}
	for _, id := range terms {
		s.Terminals = append(s.Terminals, TerminalID{From: "HC_TERMINAL_ID", ID: id})
	}
	if len(terms) > 0 {
		s.Terminal, s.TerminalFrom = ptr(terms[0]), ptr("HC_TERMINAL_ID")
	}
	return s
}

func sessionOf(s *Status) string {
	if s == nil {
		return ""
	}
	return s.Session
}

// TestIndexNeverRemovesThroughALink: a terminal folder of the index that
// someone replaced with a link to another folder is never removed through,
// by a write that moves a session, by Remove, or by GC.
func TestIndexNeverRemovesThroughALink(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	victim := t.TempDir()
	now := time.Now()
	if _, err := d.Write(testStatus("s1", os.Getpid(), "t1"), now); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(testStatus("s2", 999999999, "t1"), now); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"s1", "s2"} {
		if err := os.WriteFile(filepath.Join(victim, n), []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t1 := d.Path(TerminalsDir, "t1")
	if err := os.RemoveAll(t1); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, t1); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(testStatus("s1", os.Getpid(), "t2"), now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.GC(Liveness{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"s1", "s2"} {
		if _, err := os.Stat(filepath.Join(victim, n)); err != nil {
			t.Errorf("%s removed through the planted link: %v", n, err)
		}
	}
}

// TestForTerminalPlantedFifo: a named pipe where an index folder goes makes
// the search fail at once (a reader polls every 2 s and must never hang),
// and a writer indexing around it does not hang either.
func TestForTerminalPlantedFifo(t *testing.T) {
	for _, where := range []string{"t1", indexedDir} {
		t.Run(where, func(t *testing.T) {
			d := &Dir{Root: t.TempDir()}
			if _, err := d.Write(testStatus("s1", os.Getpid(), "t1"), time.Now()); err != nil {
				t.Fatal(err)
			}
			p := d.Path(TerminalsDir, where)
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := d.ForTerminal("t1", Liveness{})
				// A writer that repairs the index reads .indexed too.
				d.Write(testStatus("s2", os.Getpid(), "t2"), time.Now())
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("a fifo at terminals/%s: no error", where)
				}
			case <-time.After(10 * time.Second):
				// Unblock the opener so the test can end.
				f, _ := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0)
				if f != nil {
					f.Close()
				}
				t.Fatalf("blocked on a fifo at terminals/%s", where)
			}
		})
	}
}

// TestUnchangedWriteTouchesNothing: a write that changes nothing (the
// bridge's common case, at every event) leaves the state dir alone, the
// index stamp included: no metadata write at every event.
func TestUnchangedWriteTouchesNothing(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	t0 := time.Now()
	if _, err := d.Write(testStatus("s1", os.Getpid(), "t7"), t0); err != nil {
		t.Fatal(err)
	}
	// Readers compare only the stamp's modification time: an access time
	// of our own shows whether anything stamped it again.
	stamp := d.Path(TerminalsDir, indexedDir)
	fi, err := os.Stat(stamp)
	if err != nil {
		t.Fatal(err)
	}
	mark := time.Unix(1, 0)
	if err := os.Chtimes(stamp, mark, fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if wrote, err := d.Write(testStatus("s1", os.Getpid(), "t7"), t0.Add(time.Second)); wrote || err != nil {
		t.Fatalf("same content: wrote %v, %v", wrote, err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(stamp, &st); err != nil {
		t.Fatal(err)
	}
	if st.Atim.Sec != mark.Unix() {
		t.Errorf("an unchanged write re-stamped the index (atime %d)", st.Atim.Sec)
	}
	if !d.fresh() {
		t.Error("the index is no longer fresh")
	}
}

// Both ways of finding a terminal's session, the whole status and the raw
// file, trust the writer's pidStart over a startedAt the clock has jumped
// past: the raw path decodes only a few fields and must include it.
func TestForTerminalTrustsPIDStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pidStart is read on Linux only")
	}
	d := &Dir{Root: t.TempDir()}
	term := "t7"
	s := &Status{Session: "s1", PID: os.Getpid(), State: Idle,
		Terminals: []TerminalID{{From: "HC_TERMINAL_ID", ID: term}}, Terminal: &term,
		StartedAt: time.Now().Add(-24 * 365 * time.Hour)} // before this process began: only pidStart vouches for it
	if _, err := d.Write(s, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, err := d.ForTerminal(term, Liveness{}); err != nil || got == nil {
		t.Errorf("ForTerminal = %v, %v; want the session", got, err)
	}
	if got, err := d.ForTerminalRaw(term, Liveness{}); err != nil || got == nil {
		t.Errorf("ForTerminalRaw = %q, %v; want the file", got, err)
	}
}
