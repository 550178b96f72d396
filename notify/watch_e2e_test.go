package notify_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/testsrc"
)

func TestMain(m *testing.M) { testsrc.Main(m) }

const limit = 20 * time.Second

// world is a state dir, a project folder named shop the writers run in,
// and the real jig.
type world struct {
	t                *testing.T
	jig, state, shop string
	env              []string
	pid              string // the sessions' process: this test's, alive
}

func newWorld(t *testing.T, extraEnv ...string) *world {
	root := t.TempDir()
	w := &world{t: t, jig: testsrc.Jig(t), state: filepath.Join(root, "state"), shop: filepath.Join(root, "shop"),
		pid: strconv.Itoa(os.Getpid())}
	if err := os.MkdirAll(w.shop, 0o700); err != nil {
		t.Fatal(err)
	}
	w.env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + root, "JIG_STATE_DIR=" + w.state, "LANG=C.UTF-8"}, extraEnv...)
	return w
}

// write is one real writer's `jig session write` in the project.
func (w *world) write(session, fields string) {
	w.t.Helper()
	cmd := exec.Command(w.jig, "session", "write", "--session", session, "--pid", w.pid)
	cmd.Dir, cmd.Env, cmd.Stdin = w.shop, w.env, strings.NewReader(fields)
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("jig session write %s %s: %v\n%s", session, fields, err, out)
	}
}

func (w *world) end(session string) {
	w.t.Helper()
	cmd := exec.Command(w.jig, "session", "write", "--session", session, "--end")
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("jig session write --end: %v\n%s", err, out)
	}
}

// watch starts `jig session watch ARGS` as its own process, stopped at the
// test's end.
func (w *world) watch(args ...string) *exec.Cmd {
	w.t.Helper()
	cmd := exec.Command(w.jig, append([]string{"session", "watch"}, args...)...)
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		if stderr.Len() > 0 {
			w.t.Errorf("watch said on stderr: %s", stderr.String())
		}
	})
	return cmd
}

// lines is the file's lines, none when it is not there yet.
func lines(path string) []string {
	data, _ := os.ReadFile(path)
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
	}
}

// `jig session watch --all --exec` beside real writers (each write its own
// `jig session write` process): over 100 writes to three sessions, in
// which the state changes, stays (context, cost), or the same wait is
// written again, CMD runs exactly once per transition, in order, with the
// transition in its environment; then once for each end. The sessions
// there when watching began make no run for the state they were in.
func TestWatchAllRunsOncePerTransition(t *testing.T) {
	w := newWorld(t)
	log := filepath.Join(t.TempDir(), "runs.log")
	for _, s := range []string{"s1", "s2", "s3"} {
		w.write(s, `{"state":"idle"}`)
	}
	w.watch("--all", "--on", "attention,idle,busy,end", "--exec",
		`printf '%s %s %s %s %s %s\n' "$JIG_SESSION" "$JIG_STATE" "$JIG_ATTENTION" "$JIG_TOOL" "$JIG_PROJECT" "$JIG_AGENT" >> `+log)
	// A probe that changes until a run says the watch is looking: a session
	// written before its first look is taken as it is, with no run.
	waitFor(t, "the watch's first run", func() bool {
		w.write("probe", `{"state":"busy"}`)
		w.write("probe", `{"state":"idle"}`)
		return len(lines(log)) > 0
	})
	w.end("probe")
	waitFor(t, "the probe's end", func() bool { return strings.HasPrefix(lines(log)[len(lines(log))-1], "probe end") })
	probeRuns := len(lines(log))

	// Each step: fields, and whether it changes the session's state.
	steps := []struct {
		fields string
		change string // the run it makes, "" for none
	}{
		{`{"state":"busy"}`, "busy   shop pi"},
		{`{"context":{"tokens":1000}}`, ""},
		{`{"state":"busy","usage":{"cost":0.5}}`, ""},
		{`{"attention":{"kind":"permission","tool":"Bash"}}`, "attention permission Bash shop pi"},
		{`{"attention":{"kind":"permission","tool":"Bash"},"context":{"tokens":2000}}`, ""},
		{`{"attention":null}`, "busy   shop pi"},
		{`{"state":"idle"}`, "idle   shop pi"},
		{`{"state":"idle"}`, ""},
		{`{"attention":{"kind":"error"}}`, "attention error  shop pi"},
		{`{"attention":{"kind":"question"},"state":"busy"}`, "attention question  shop pi"},
		{`{"attention":null,"state":"idle"}`, "idle   shop pi"},
	}
	var want []string
	writes := 0
	for i := 0; writes < 100; i++ {
		session := []string{"s1", "s2", "s3"}[i%3]
		step := steps[(i/3)%len(steps)]
		w.write(session, step.fields)
		writes++
		if step.change != "" {
			want = append(want, session+" "+step.change)
			// the next write waits for this run: no two transitions of a
			// session in one look
			waitFor(t, fmt.Sprintf("write %d's run (%s %s)", writes, session, step.change), func() bool {
				return len(lines(log)) >= probeRuns+len(want)
			})
		}
	}
	for _, s := range []string{"s1", "s2", "s3"} {
		w.end(s)
		want = append(want, s+" end   shop pi")
	}
	waitFor(t, "the ends' runs", func() bool { return len(lines(log)) >= probeRuns+len(want) })
	time.Sleep(time.Second) // and no run after them
	got := lines(log)[probeRuns:]
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d runs over %d writes:\n%s\nwant %d:\n%s", len(got), writes, strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
}

// --notify reaches the desktop's notify-send (a stand-in here, where a
// D-Bus session says there is a desktop): one line naming the project and
// what waits; the watch of one session ends with it.
func TestWatchNotifySend(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "notify-send.log")
	if err := os.WriteFile(filepath.Join(bin, "notify-send"), []byte("#!/bin/sh\nprintf '%s|' \"$@\" >> "+log+"\necho >> "+log+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus")
	w.env[0] = "PATH=" + bin + ":/usr/bin:/bin"
	w.write("n1", `{"state":"busy"}`)
	watch := w.watch("n1", "--on", "attention", "--notify")
	// Until the watch has looked, a wait written is the state it starts
	// from: the session waits and stops waiting until it says one.
	waitFor(t, "notify-send's first call", func() bool {
		w.write("n1", `{"attention":null}`)
		w.write("n1", `{"attention":{"kind":"permission","tool":"Bash"}}`)
		return len(lines(log)) > 0
	})
	w.write("n1", `{"attention":null}`)
	first := len(lines(log))
	w.write("n1", `{"attention":{"kind":"question"}}`)
	waitFor(t, "notify-send's call for the question", func() bool { return len(lines(log)) == first+1 })
	w.write("n1", `{"attention":null}`)
	w.write("n1", `{"state":"idle"}`)
	w.end("n1")
	done := make(chan error, 1)
	go func() { done <- watch.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("watch of an ended session: %v", err)
		}
	case <-time.After(limit):
		t.Fatal("the watch did not end with its session")
	}
	got := lines(log)
	if len(got) != first+1 || got[0] != "--app-name=jig|--|jig|shop: Bash waits for approval|" ||
		got[first] != "--app-name=jig|--|jig|shop: a question waits for an answer|" {
		t.Errorf("notify-send got %q; want each wait once, and nothing for busy, idle or the end (--on attention)", got)
	}
}

// Inside a private tmux, with no desktop, --notify is tmux's own message,
// on the status line of the client that shows the watch's session.
func TestWatchNotifyInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is missing: run .ci/provision")
		}
		t.Skip("tmux is missing (.ci/provision installs it)")
	}
	w := newWorld(t)
	tmp := t.TempDir()
	env := append(w.env, "TMUX_TMPDIR="+tmp, "TERM=xterm-256color")
	inner, outer := testsrc.NewTmux(t, "inner", env), testsrc.NewTmux(t, "outer", env)
	inner.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "120", "-y", "6",
		"env JIG_STATE_DIR="+w.state+" "+w.jig+" session watch --all --on attention --notify; sleep 600")
	inner.Run("set", "-g", "display-time", "20000")
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "6", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t main")
	waitFor(t, "tmux's message", func() bool {
		// until the watch has looked, a wait is where it starts from
		w.write("t1", `{"state":"busy","attention":null}`)
		w.write("t1", `{"attention":{"kind":"permission","tool":"Bash"}}`)
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		return strings.Contains(rows[len(rows)-1], "jig: shop: Bash waits for approval")
	})
}
