package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"jig/internal/hammer"
	"jig/status"
)

// The hammer tests run jig as real processes, racing, failing and killed,
// and check that the status file stays the truth. Under -hammer.full they
// run at the counts bench/reliability records; without it they stay short
// enough for every `go test ./...`. The jig they run is the one
// testscript.Main put on PATH: this test binary, running main.

// jigProc is `jig args…` as its own process, with stdin, writing into the
// state dir state, in no terminal.
func jigProc(state, stdin string, args ...string) *exec.Cmd {
	cmd := exec.Command("jig", args...)
	cmd.Env = jigEnv(state)
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// jigEnv is this process's environment without what would make jig see a
// terminal, another state dir, a fixed clock or the user's configuration:
// HOME is the folder the state dir is in.
func jigEnv(state string) []string {
	drop := []string{"JIG_STATE_DIR", "JIG_TEST_NOW", "HC_TERMINAL_ID", "HERDR_PANE_ID", "TMUX", "TMUX_PANE",
		"KITTY_WINDOW_ID", "WEZTERM_PANE", "PI_CODING_AGENT_DIR", "JIG_FORCE_TTY", "HOME", "XDG_CONFIG_HOME", "JIG_CONFIG"}
	env := []string{"JIG_STATE_DIR=" + state, "HOME=" + filepath.Dir(state)}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(drop, name) {
			env = append(env, kv)
		}
	}
	return env
}

// ran is how a jig process ended.
type ran struct {
	code           int
	stdout, stderr string
}

// runProc runs cmd to its end. A process that could not start or was
// killed by a signal is an error, and its code -1. It may be called from
// any goroutine.
func runProc(t *testing.T, cmd *exec.Cmd) ran {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee := (*exec.ExitError)(nil); err != nil && (!errors.As(err, &ee) || ee.ExitCode() < 0) {
		t.Errorf("%v: %v; stderr %q", cmd.Args[1:], err, errOut.String())
		return ran{-1, out.String(), errOut.String()}
	}
	return ran{cmd.ProcessState.ExitCode(), out.String(), errOut.String()}
}

// mustRun runs cmd and wants exit 0 with nothing on stderr; it returns
// stdout.
func mustRun(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	r := runProc(t, cmd)
	if r.code != 0 || r.stderr != "" {
		t.Errorf("%v: exit %d, stderr %q", cmd.Args[1:], r.code, r.stderr)
	}
	return r.stdout
}

// field is one top-level field a racing writer sets, and how to see it kept.
type field struct {
	name, value string
	kept        func(s *status.Status) bool
}

var racingFields = []field{
	{"ticket", `{"key":"HAM-1"}`, func(s *status.Status) bool { return s.Ticket != nil && s.Ticket.Key == "HAM-1" }},
	{"thinking", `"high"`, func(s *status.Status) bool { return s.Thinking != nil && *s.Thinking == "high" }},
	{"model", `{"provider":"p","id":"hammer-model","name":"Hammer"}`, func(s *status.Status) bool { return s.Model != nil && s.Model.ID == "hammer-model" }},
	{"cwd", `"/hammer/cwd"`, func(s *status.Status) bool { return s.CWD == "/hammer/cwd" }},
	{"usage", `{"input":4242,"output":1,"cacheRead":0,"cacheWrite":0,"cost":null}`, func(s *status.Status) bool { return s.Usage.Input == 4242 }},
	{"context", `{"tokens":4343,"window":200000}`, func(s *status.Status) bool { return s.Context.Tokens != nil && *s.Context.Tokens == 4343 }},
	{"tools", `{"active":3,"total":44}`, func(s *status.Status) bool { return s.Tools.Total == 44 }},
	{"outputs", `[{"path":"/hammer/out.go","action":"created","at":"2030-01-01T00:00:00Z","repo":null}]`, func(s *status.Status) bool {
		return len(s.Outputs) == 1 && s.Outputs[0].Path == "/hammer/out.go"
	}},
	{"recent", `[{"at":"2030-01-01T00:00:00Z","tool":"hammer-tool","outcome":"ok"}]`, func(s *status.Status) bool {
		return len(s.Recent) == 1 && s.Recent[0].Tool == "hammer-tool"
	}},
}

// TestHammerRacingWriters: 50 `jig session write` processes, each switching
// off a different tool, nine more each setting a different top-level field
// (workflow is not one: it is read from the ticket's folder at each write),
// and the bridge writing the session's state all along, race on one
// session. Every process exits 0, and every change is in the file. (Before
// the per-session lock, 50 such writes kept 3 to 14 switches, and ten
// field writers kept two fields, all exiting 0.)
func TestHammerRacingWriters(t *testing.T) {
	rounds := hammer.Scaled(1, 20)
	const switchWriters = 50
	state := t.TempDir()
	start := time.Now()
	lost, bridgeLines := 0, 0
	for r := range rounds {
		l, b := racingWritersRound(t, state, fmt.Sprintf("race%d", r), switchWriters)
		lost += l
		bridgeLines += b
	}
	changes := rounds * (switchWriters + len(racingFields) + 1)
	hammer.Figure(t, hammer.Row{Attack: "racing writers + bridge, one session",
		Load: fmt.Sprintf("%d rounds x (%d switch + %d field writer processes + the bridge, %d bridge lines in all)", rounds, switchWriters, len(racingFields), bridgeLines),
		Kept: fmt.Sprintf("%d of %d changes", changes-lost, changes), Lost: int64(lost), Exit: "0"}, start)
}

// racingWritersRound races the writers on one session and returns how many
// changes the file lost and how many lines the bridge wrote meanwhile.
func racingWritersRound(t *testing.T, state, session string, switchWriters int) (lost, bridgeLines int) {
	pid := strconv.Itoa(os.Getpid())
	b := startBridge(t, state, session, os.Getpid())
	var cmds []*exec.Cmd
	for n := range switchWriters {
		cmds = append(cmds, jigProc(state, fmt.Sprintf(`{"switches":{"tools":{"w%d":false}}}`, n),
			"session", "write", "--session", session, "--pid", pid))
	}
	for _, f := range racingFields {
		cmds = append(cmds, jigProc(state, fmt.Sprintf(`{%q:%s}`, f.name, f.value),
			"session", "write", "--session", session, "--pid", pid))
	}
	errOut := make([]bytes.Buffer, len(cmds))
	for i, cmd := range cmds {
		cmd.Stderr = &errOut[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil || errOut[i].Len() > 0 {
			t.Errorf("%s writer %d: %v, stderr %q", session, i, err, errOut[i].String())
		}
	}
	bridgeLines = b.stop(t)
	s, err := (&status.Dir{Root: state}).Read(session)
	if err != nil {
		t.Fatal(err)
	}
	for n := range switchWriters {
		if off, ok := s.Switches.Tools[fmt.Sprintf("w%d", n)]; !ok || off {
			lost++
			t.Errorf("%s: switches.tools.w%d lost", session, n)
		}
	}
	for _, f := range racingFields {
		if !f.kept(s) {
			lost++
			t.Errorf("%s: %s lost", session, f.name)
		}
	}
	if s.State != status.Idle {
		lost++
		t.Errorf("%s: state %q, the bridge's last word was idle", session, s.State)
	}
	return lost, bridgeLines
}

// bridgeProc is `jig pi bridge` fed live lines as fast as it takes them.
type bridgeProc struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	quit  chan struct{}
	done  chan error
	lines int
}

// startBridge starts a bridge for session and keeps it writing: each live
// line flips the state, and a "where" after it waits until the bridge has
// taken it, so no backlog builds up.
func startBridge(t *testing.T, state, session string, pid int) *bridgeProc {
	t.Helper()
	cmd := exec.Command("jig", "pi", "bridge")
	cmd.Env = jigEnv(state)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &bridgeProc{cmd: cmd, in: in, out: bufio.NewScanner(out), quit: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		b.done <- b.feed(session, pid)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return b
}

func (b *bridgeProc) feed(session string, pid int) error {
	if err := b.say(fmt.Sprintf(`{"type":"hello","session":%q,"pid":%d}`, session, pid)); err != nil {
		return err
	}
	for {
		select {
		case <-b.quit:
			return b.say(`{"type":"end","keep":true}`)
		default:
		}
		// busy, then idle: the last state said is always idle
		for _, state := range []string{status.Busy, status.Idle} {
			if err := b.say(fmt.Sprintf(`{"type":"live","live":{"state":%q}}`, state)); err != nil {
				return err
			}
		}
	}
}

// say sends one line and, but for "end", waits for the bridge's answer to
// a "where" sent after it. Any other line from the bridge is a notice: an
// error.
func (b *bridgeProc) say(line string) error {
	if _, err := fmt.Fprintln(b.in, line); err != nil {
		return err
	}
	b.lines++
	if strings.Contains(line, `"end"`) {
		return b.in.Close()
	}
	if _, err := fmt.Fprintln(b.in, `{"type":"where"}`); err != nil {
		return err
	}
	if !b.out.Scan() {
		return fmt.Errorf("bridge: no answer to where: %v", b.out.Err())
	}
	if got := b.out.Text(); !strings.HasPrefix(got, `{"type":"where"`) {
		return fmt.Errorf("bridge said %s", got)
	}
	return nil
}

// stop ends the bridge's session (keeping the file) and returns how many
// lines it took.
func (b *bridgeProc) stop(t *testing.T) int {
	t.Helper()
	close(b.quit)
	if err := <-b.done; err != nil {
		t.Error(err)
	}
	if err := b.cmd.Wait(); err != nil {
		t.Errorf("bridge: %v, stderr %q", err, b.cmd.Stderr.(*bytes.Buffer).String())
	}
	return b.lines
}

// TestHammerGCRacingWriters: writer processes keep moving sessions between
// terminals while `jig session gc` runs in a loop. Right after each write,
// `jig session for-terminal` finds the session in its new terminal, and at
// the end gc has removed none of them. (Before the per-session lock, gc
// removed a marker a writer had just made: 24 tries in 150 hid the
// session.)
func TestHammerGCRacingWriters(t *testing.T) {
	writers, moves := 3, hammer.Scaled(20, 150)
	state := t.TempDir()
	pid := strconv.Itoa(os.Getpid())
	start := time.Now()
	var hidden, gcs atomic.Int64
	quit := make(chan struct{})
	gcDone := make(chan struct{})
	go func() {
		defer close(gcDone)
		for {
			select {
			case <-quit:
				return
			default:
			}
			if r := runProc(t, jigProc(state, "", "session", "gc")); r.code != 0 || !strings.HasPrefix(r.stdout, "removed 0 ended sessions") {
				t.Errorf("gc: exit %d, %q %q", r.code, r.stdout, r.stderr)
			}
			gcs.Add(1)
		}
	}()
	terminalOf := func(w, m int) string { return fmt.Sprintf("g%d-%d", w, m%3) }
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := fmt.Sprintf("g%d", w)
			for m := range moves {
				term := terminalOf(w, m)
				mustRun(t, jigProc(state, fmt.Sprintf(`{"terminals":[{"from":"HC_TERMINAL_ID","id":%q}],"terminal":%[1]q,"terminalFrom":"HC_TERMINAL_ID"}`, term),
					"session", "write", "--session", session, "--pid", pid))
				if !sessionIn(t, state, session, term) && hidden.Add(1) <= 5 {
					t.Errorf("%s, move %d: for-terminal %s does not find it right after its write", session, m, term)
				}
			}
		}()
	}
	wg.Wait()
	close(quit)
	<-gcDone
	mustRun(t, jigProc(state, "", "session", "gc"))
	lost := int64(0)
	for w := range writers {
		session, term := fmt.Sprintf("g%d", w), terminalOf(w, moves-1)
		if !sessionIn(t, state, session, term) {
			lost++
			t.Errorf("%s: for-terminal %s does not find it after the race", session, term)
		}
	}
	checks := int64(writers * (moves + 1))
	hammer.Figure(t, hammer.Row{Attack: "gc racing writers (processes)",
		Load: fmt.Sprintf("%d writers x %d moves, each checked with for-terminal; %d gc runs", writers, moves, gcs.Load()),
		Kept: fmt.Sprintf("%d of %d lookups found the session", checks-hidden.Load()-lost, checks), Lost: hidden.Load() + lost, Exit: "0"}, start)
}

// sessionIn reports whether `jig session for-terminal term` finds session.
func sessionIn(t *testing.T, state, session, term string) bool {
	r := runProc(t, jigProc(state, "", "session", "for-terminal", term, "--json"))
	var s struct{ Session string }
	return r.code == 0 && json.Unmarshal([]byte(r.stdout), &s) == nil && s.Session == session
}

// TestHammerKilledWriters: bridges and `jig session write` processes
// writing large statuses are killed with SIGKILL at random moments while a
// reader reads the file without pause. Every read decodes: no half file,
// ever. The temp files the killed writes left are removed by gc once past
// their grace, and the live session's file stays.
func TestHammerKilledWriters(t *testing.T) {
	minKills, maxKills := hammer.Scaled(10, 400), hammer.Scaled(100, 2000)
	state := t.TempDir()
	const session = "killed"
	pid := strconv.Itoa(os.Getpid())
	dir := &status.Dir{Root: state}
	big := largeLive()
	mustRun(t, jigProc(state, big, "session", "write", "--session", session, "--pid", pid))
	start := time.Now()

	var reads, half atomic.Int64
	quit := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			select {
			case <-quit:
				return
			default:
			}
			data, err := status.ReadFileNoFollow(dir.SessionPath(session))
			if err == nil {
				_, err = status.Decode(data)
			}
			if err != nil && half.Add(1) <= 5 {
				t.Errorf("read %d: %v", reads.Load(), err)
			}
			reads.Add(1)
		}
	}()
	kills, temps := 0, 0
	for ; kills < maxKills && (kills < minKills || temps == 0); kills++ {
		var cmd *exec.Cmd
		var feed func(io.Writer)
		if kills%2 == 0 {
			cmd = exec.Command("jig", "pi", "bridge")
			feed = func(w io.Writer) {
				fmt.Fprintf(w, `{"type":"hello","session":%q,"pid":%s}`+"\n", session, pid)
				for i := 0; ; i++ {
					if _, err := fmt.Fprintf(w, `{"type":"live","live":{"state":%q,"usage":{"input":%d}}}`+"\n", []string{"busy", "idle"}[i%2], i); err != nil {
						return // killed
					}
				}
			}
		} else {
			cmd = exec.Command("jig", "session", "write", "--session", session, "--pid", pid)
			feed = func(w io.Writer) {
				io.WriteString(w, strings.Replace(big, `"input":1`, fmt.Sprintf(`"input":%d`, kills), 1))
			}
		}
		cmd.Env = jigEnv(state)
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { feed(in); in.Close() }()
		time.Sleep(time.Duration(5+rand.IntN(25)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		temps = len(writeTemps(t, state))
	}
	close(quit)
	<-readDone

	s, err := dir.Read(session)
	if err != nil {
		t.Fatalf("after %d kills: %v", kills, err)
	}
	if s.Session != session {
		t.Errorf("the file holds %q", s.Session)
	}
	// gc removes a temp file only once it is past its grace: a younger one
	// may be a write under way.
	if r := mustRun(t, jigProc(state, "", "session", "gc")); strings.Contains(r, "unfinished") {
		t.Errorf("gc removed young temp files: %q", r)
	}
	later := jigProc(state, "", "session", "gc")
	later.Env = append(later.Env, "JIG_TEST_NOW="+time.Now().Add(status.TempGrace+time.Minute).UTC().Format(time.RFC3339))
	out := mustRun(t, later)
	if left := writeTemps(t, state); len(left) > 0 {
		t.Errorf("gc left %v (said %q)", left, out)
	}
	if temps > 0 && !strings.Contains(out, fmt.Sprintf(", %d unfinished write", temps)) {
		t.Errorf("gc said %q, want %d unfinished writes removed", out, temps)
	}
	if _, err := dir.Read(session); err != nil {
		t.Errorf("gc removed the live session's file: %v", err)
	}
	hammer.Figure(t, hammer.Row{Attack: "SIGKILL of writers mid-write",
		Load: fmt.Sprintf("%d kills (bridge and session write, 5-30 ms in), %d reads meanwhile", kills, reads.Load()),
		Kept: fmt.Sprintf("%d of %d reads whole; %d temp files left, all removed by gc after their grace", reads.Load()-half.Load(), reads.Load(), temps),
		Lost: half.Load(), Exit: "SIGKILL"}, start)
}

// largeLive is what a writer says: a state, usage, and 100 long output
// paths, so a write takes long enough to be killed in the middle of.
func largeLive() string {
	var outs []string
	for i := range 100 {
		outs = append(outs, fmt.Sprintf(`{"path":"/hammer/%s/file%03d.go","action":"changed","at":"2030-01-01T00:00:00Z","repo":null}`, strings.Repeat("deep/", 150), i))
	}
	return `{"state":"busy","usage":{"input":1},"outputs":[` + strings.Join(outs, ",") + `]}`
}

// writeTemps lists the temp files of one-step writes left in sessions/.
func writeTemps(t *testing.T, state string) []string {
	t.Helper()
	des, err := os.ReadDir(state + "/sessions")
	if err != nil {
		t.Fatal(err)
	}
	var temps []string
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") {
			temps = append(temps, de.Name())
		}
	}
	return temps
}
