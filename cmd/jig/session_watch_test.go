package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/hot"
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
	e := &env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: w.stderr, Now: time.Now,
		Hostname: os.Hostname,
		Getenv: func(k string) string {
			if k == "JIG_STATE_DIR" {
				return state
			}
			return ""
		}}}
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
	writeWatchedTokens(t, dir, state, 0)
}

// writeWatchedTokens writes w1's status with its context's token count.
func writeWatchedTokens(t *testing.T, dir *status.Dir, state string, tokens int64) {
	t.Helper()
	s := &status.Status{Schema: 1, Session: "w1", PID: os.Getpid(), State: state}
	if tokens > 0 {
		s.Context.Tokens = &tokens
	}
	if _, err := dir.Write(s, time.Now()); err != nil {
		t.Fatal(err)
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

// A line only when what it prints changes (issue 23): five writes that
// leave the state as it was print one "busy", not five; --json still
// prints each change.
func TestSessionWatchPrintsChanges(t *testing.T) {
	state := t.TempDir()
	dir := &status.Dir{Root: state}
	writeWatched(t, dir, status.Busy)
	jq := startWatch(t, state, "w1", "--jq", ".state")
	js := startWatch(t, state, "w1", "--json")
	if l := jq.next(t, "the first status"); l != "busy" {
		t.Fatalf("first line %q, want busy", l)
	}
	js.next(t, "the first status")
	for n := int64(1); n <= 5; n++ {
		writeWatchedTokens(t, dir, status.Busy, n*1000)
		if l := js.next(t, "a change of tokens"); !strings.Contains(l, fmt.Sprintf(`"tokens":%d`, n*1000)) {
			t.Fatalf("--json line %q, want tokens %d", l, n*1000)
		}
	}
	jq.quiet(t, 300*time.Millisecond, "writes that leave .state busy")
	writeWatchedTokens(t, dir, status.Idle, 5000)
	if l := jq.next(t, "the change to idle"); l != "idle" {
		t.Fatalf("line %q, want idle", l)
	}
	if err := dir.Remove("w1"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []*watchRun{jq, js} {
		if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
			t.Errorf("exit %d, stderr %q", code, w.stderr)
		}
	}
}

// The state dir moved away and made again (issue 22): watch follows the
// new one, where the session's writer goes on, within its 2 s check.
func TestSessionWatchStateDirReplaced(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	dir := &status.Dir{Root: state}
	writeWatched(t, dir, status.Idle)
	w := startWatch(t, state, "w1", "--jq", ".state")
	if l := w.next(t, "the first status"); l != "idle" {
		t.Fatalf("first line %q, want idle", l)
	}
	if err := os.Rename(state, state+".old"); err != nil {
		t.Fatal(err)
	}
	writeWatched(t, dir, status.Busy) // the writer makes the state dir again
	if l := w.next(t, "the status in the new state dir"); l != "busy" {
		t.Fatalf("line %q, want busy", l)
	}
	if err := dir.Remove("w1"); err != nil {
		t.Fatal(err)
	}
	if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q", code, w.stderr)
	}
}

// With --on and neither --exec nor --notify, watch prints one line per
// transition, naming the project and what happened; --json prints the
// status instead. It ends with the session's end.
func TestSessionWatchOnPrintsTransitions(t *testing.T) {
	state := t.TempDir()
	dir := &status.Dir{Root: state}
	writeWatched(t, dir, status.Idle)
	w := startWatch(t, state, "w1", "--on", "attention,busy,end")
	// until the watch has looked, what is written is where it starts from
	for got := ""; got == ""; {
		writeWatched(t, dir, status.Busy)
		select {
		case got = <-w.lines:
			if got != "the agent is busy" {
				t.Fatalf("line %q, want the busy transition", got)
			}
		case <-time.After(200 * time.Millisecond):
			writeWatched(t, dir, status.Idle) // not asked for: no line
		}
	}
	writeWatchedTokens(t, dir, status.Busy, 500)
	s := &status.Status{Schema: 1, Session: "w1", PID: os.Getpid(), State: status.Busy,
		Attention: &status.Attention{Kind: status.AttentionPermission, Tool: "Bash"}}
	if _, err := dir.Write(s, time.Now()); err != nil {
		t.Fatal(err)
	}
	if l := w.next(t, "the attention"); l != "Bash waits for approval" {
		t.Fatalf("line %q, want the attention", l)
	}
	if err := dir.Remove("w1"); err != nil {
		t.Fatal(err)
	}
	if l := w.next(t, "the end"); l != "the agent ended" {
		t.Fatalf("line %q, want the end", l)
	}
	if code := w.exit(t); code != 0 || w.stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q", code, w.stderr)
	}
}
