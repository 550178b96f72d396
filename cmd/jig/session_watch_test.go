package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"jig/status"
)

// watchRun runs `jig session watch ARGS` in this process; its stdout comes
// line by line on lines, its exit code on done.
type watchRun struct {
	lines  chan string
	done   chan int
	stderr *bytes.Buffer
}

func startWatch(t *testing.T, state string, args ...string) *watchRun {
	t.Helper()
	pr, pw := io.Pipe()
	w := &watchRun{lines: make(chan string, 100), done: make(chan int, 1), stderr: &bytes.Buffer{}}
	e := &env{stdin: strings.NewReader(""), stdout: pw, stderr: w.stderr, now: time.Now,
		hostname: os.Hostname,
		getenv: func(k string) string {
			if k == "JIG_STATE_DIR" {
				return state
			}
			return ""
		}}
	go func() {
		w.done <- run(append([]string{"jig", "session", "watch"}, args...), e)
		pw.Close()
	}()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w
}

func (w *watchRun) next(t *testing.T, what string) string {
	t.Helper()
	select {
	case l, ok := <-w.lines:
		if !ok {
			t.Fatalf("watch ended before %s; stderr %q", what, w.stderr)
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatalf("no line for %s within 10s", what)
	}
	return ""
}

func (w *watchRun) quiet(t *testing.T, d time.Duration, what string) {
	t.Helper()
	select {
	case l := <-w.lines:
		t.Fatalf("%s: a line %q, want none", what, l)
	case <-time.After(d):
	}
}

func (w *watchRun) exit(t *testing.T) int {
	t.Helper()
	select {
	case code := <-w.done:
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not end within 10s")
	}
	return -1
}

func writeWatched(t *testing.T, dir *status.Dir, state string) {
	t.Helper()
	s := &status.Status{Schema: 1, Session: "w1", PID: os.Getpid(), State: state}
	if _, err := dir.Write(s, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// One line per change, none while nothing changes, exit 0 when the file
// goes; with inotify and with polling.
func TestSessionWatch(t *testing.T) {
	for _, mode := range []string{"inotify", "poll"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "poll" {
				old, oldPoll := newWatcher, watchPoll
				newWatcher = func() (*fsnotify.Watcher, error) { return nil, errors.New("no inotify here") }
				watchPoll = 50 * time.Millisecond
				t.Cleanup(func() { newWatcher, watchPoll = old, oldPoll })
			}
			state := t.TempDir()
			dir := &status.Dir{Root: state}
			writeWatched(t, dir, status.Idle)
			w := startWatch(t, state, "w1", "--json")
			if l := w.next(t, "the first status"); !strings.HasPrefix(l, "{") || !strings.Contains(l, `"state":"idle"`) {
				t.Fatalf("first line %q, want the status as one line of JSON", l)
			}
			writeWatched(t, dir, status.Busy)
			if l := w.next(t, "the change to busy"); !strings.Contains(l, `"state":"busy"`) {
				t.Fatalf("line %q, want busy", l)
			}
			writeWatched(t, dir, status.Busy) // the same status: the file is not rewritten
			w.quiet(t, 300*time.Millisecond, "an unchanged status")
			writeWatched(t, dir, status.Idle)
			if l := w.next(t, "the change to idle"); !strings.Contains(l, `"state":"idle"`) {
				t.Fatalf("line %q, want idle", l)
			}
			if err := dir.Remove("w1"); err != nil {
				t.Fatal(err)
			}
			if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
				t.Errorf("exit %d, stderr %q; want 0 and nothing when the session ends", code, w.stderr)
			}
		})
	}
}

// Ctrl-C or SIGTERM ends it quietly with 0; a summary line without --json.
func TestSessionWatchSignal(t *testing.T) {
	state := t.TempDir()
	dir := &status.Dir{Root: state}
	writeWatched(t, dir, status.Idle)
	w := startWatch(t, state, "w1")
	if l := w.next(t, "the first status"); !strings.HasPrefix(l, "idle ") || !strings.Contains(l, "(w1, updated") {
		t.Fatalf("first line %q, want the one-line summary", l)
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q after SIGTERM; want 0 and nothing", code, w.stderr)
	}
}

// A session whose process is gone without removing its file has ended.
func TestSessionWatchProcessGone(t *testing.T) {
	old := watchLiveCheck
	watchLiveCheck = 50 * time.Millisecond
	t.Cleanup(func() { watchLiveCheck = old })
	state := t.TempDir()
	dir := &status.Dir{Root: state}
	writeWatched(t, dir, status.Idle)
	w := startWatch(t, state, "w1", "--json")
	w.next(t, "the first status")
	// the file now names a process that is not this one
	data, _ := os.ReadFile(dir.SessionPath("w1"))
	data = bytes.Replace(data, []byte(`"pidStart": "`), []byte(`"pidStart": "other-`), 1)
	if err := status.WriteFileAtomic(dir.SessionPath("w1"), data); err != nil {
		t.Fatal(err)
	}
	w.next(t, "the rewritten status")
	if code := w.exit(t); code != 0 {
		t.Errorf("exit %d, want 0 once the process is gone", code)
	}
}

// --jq and --format print what they make of each status, one line each.
func TestSessionWatchJQFormat(t *testing.T) {
	for _, args := range [][]string{{"--jq", ".state"}, {"--format", "{{.session}} is {{.state}}"}} {
		t.Run(args[0], func(t *testing.T) {
			state := t.TempDir()
			dir := &status.Dir{Root: state}
			writeWatched(t, dir, status.Idle)
			w := startWatch(t, state, append([]string{"w1"}, args...)...)
			want := map[string][2]string{"--jq": {"idle", "busy"}, "--format": {"w1 is idle", "w1 is busy"}}[args[0]]
			if l := w.next(t, "the first status"); l != want[0] {
				t.Fatalf("first line %q, want %q", l, want[0])
			}
			writeWatched(t, dir, status.Busy)
			if l := w.next(t, "the change to busy"); l != want[1] {
				t.Fatalf("line %q, want %q", l, want[1])
			}
			if err := dir.Remove("w1"); err != nil {
				t.Fatal(err)
			}
			if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
				t.Errorf("exit %d, stderr %q", code, w.stderr)
			}
		})
	}
}
