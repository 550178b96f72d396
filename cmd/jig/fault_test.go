package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/exit"
	"jig/internal/hammer"
	"jig/status"
)

// The fault tests: a write that cannot be made leaves the old file as it
// was and says so in one line with a non-zero exit; it is never dropped in
// silence.

// writeErrorLine is the error line of `jig session write` and nothing more.
var writeErrorLine = regexp.MustCompile(`\Ajig: session write: [^\n]+\n\z`)

// refusedWrite checks that a write ended with exit 7 and one line
// matching cause, and left the file at path byte for byte as before; it
// counts the write in tl.
func refusedWrite(t *testing.T, tl *tally, r ran, cause string, path string, before []byte) {
	t.Helper()
	ok := true
	if r.code != exit.Failed || !writeErrorLine.MatchString(r.stderr) || !regexp.MustCompile(cause).MatchString(r.stderr) || r.stdout != "" {
		ok = false
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and one line saying %s", r.code, r.stdout, r.stderr, exit.Failed, cause)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		ok = false
		t.Errorf("the old file changed (%v): %q", err, after)
	}
	if left := writeTemps(t, filepath.Dir(filepath.Dir(path))); len(left) > 0 {
		ok = false
		t.Errorf("the refused write left %v", left)
	}
	tl.add(r.code, ok)
}

// TestHammerFullDisk: a disk that fills up under a write. The file size
// limit (RLIMIT_FSIZE, `ulimit -f`) makes the write fail with EFBIG as a
// full disk fails it with ENOSPC, as any user, on any file system. Under
// -hammer.full, and where this process may mount one, a small tmpfs filled
// to the last byte gives the real ENOSPC too.
func TestHammerFullDisk(t *testing.T) {
	start := time.Now()
	pid := strconv.Itoa(os.Getpid())
	state := t.TempDir()
	mustRun(t, jigProc(state, `{"state":"idle"}`, "session", "write", "--session", "full", "--pid", pid))
	path := (&status.Dir{Root: state}).SessionPath("full")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The shell lets jig see EFBIG rather than die of SIGXFSZ; 16 blocks is
	// far less than the large status and more than the empty lock file.
	limited := exec.Command("sh", "-c", `trap '' XFSZ; ulimit -f 16 && exec jig "$@"`, "sh", "session", "write", "--session", "full", "--pid", pid)
	limited.Env = jigEnv(state)
	limited.Stdin = bytes.NewReader([]byte(largeLive()))
	var tl tally
	refusedWrite(t, &tl, runProc(t, limited), "file too large", path, before)
	cases := "RLIMIT_FSIZE (EFBIG)"

	if hammer.Full() {
		if disk, ok := mountTmpfs(t); ok {
			state := filepath.Join(disk, "state")
			mustRun(t, jigProc(state, `{"state":"idle"}`, "session", "write", "--session", "full", "--pid", pid))
			path := (&status.Dir{Root: state}).SessionPath("full")
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fill(t, filepath.Join(disk, "filler"))
			refusedWrite(t, &tl, runProc(t, jigProc(state, largeLive(), "session", "write", "--session", "full", "--pid", pid)),
				"no space left on device", path, before)
			cases += " and a full tmpfs (ENOSPC)"
		} else {
			t.Log("no tmpfs could be mounted here: only RLIMIT_FSIZE was tried")
		}
	}
	hammer.Figure(t, tl.row("full disk", cases, "old file intact, one line"), start)
}

// mountTmpfs mounts a 256 KiB tmpfs for the test, if this process may.
func mountTmpfs(t *testing.T) (string, bool) {
	t.Helper()
	disk := t.TempDir()
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=256k,mode=0700"); err != nil {
		return "", false
	}
	t.Cleanup(func() { syscall.Unmount(disk, syscall.MNT_DETACH) })
	return disk, true
}

// fill writes to path until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, zeros{}); err == nil || !bytes.Contains([]byte(err.Error()), []byte("no space left")) {
		t.Fatalf("filling the tmpfs: %v", err)
	}
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestHammerReadOnlyStateDir: sessions/ is read-only for the writer. Root
// writes anywhere whatever the mode, so when the test runs as root the
// writer runs as nobody (uid 65534) over a state dir nobody owns.
func TestHammerReadOnlyStateDir(t *testing.T) {
	start := time.Now()
	w := asWriter(t)
	state := filepath.Join(w.top, "state")
	write := func(stdin string) ran {
		return runProc(t, w.command(jigProc(state, stdin, "session", "write", "--session", "ro", "--pid", strconv.Itoa(os.Getpid()))))
	}
	if r := write(`{"state":"idle"}`); r.code != 0 {
		t.Fatalf("first write: exit %d, %s", r.code, r.stderr)
	}
	sessions := filepath.Join(state, status.SessionsDir)
	path := filepath.Join(sessions, "ro.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sessions, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(sessions, 0o700) }) // so the test's folder can go
	var tl tally
	refusedWrite(t, &tl, write(`{"state":"busy"}`), "permission denied", path, before)
	hammer.Figure(t, tl.row("read-only state dir", "sessions/ mode 0500, writer "+map[bool]string{true: "as nobody (the test runs as root)", false: "as the test's user"}[w.who != nil],
		"old file intact, one line"), start)
}

// writerAs is a writer that mode 0500 stops: this process's user, or, for
// root, nobody, with a folder of its own for its state dir, HOME and
// working folder, and a copy of the binary it can run, both where it can
// reach them wherever the clone lies.
type writerAs struct {
	top, bin string
	who      *syscall.SysProcAttr // nil: this process's user
}

// command makes cmd run as the writer: its binary, its user and, in its
// own folder, not the clone's (jig reads the project's settings from its
// working folder, which another user may not be allowed to enter).
func (w writerAs) command(cmd *exec.Cmd) *exec.Cmd {
	cmd.Path, cmd.Err, cmd.SysProcAttr, cmd.Dir = w.bin, nil, w.who, w.top
	return cmd
}

func asWriter(t *testing.T) writerAs {
	t.Helper()
	jig, err := exec.LookPath("jig")
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return writerAs{top: t.TempDir(), bin: jig}
	}
	const nobody = 65534
	base := reachableTempDir(t)
	top, binDir := filepath.Join(base, "top"), filepath.Join(base, "bin")
	for _, d := range []string{top, binDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(top, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(binDir, "jig")
	data, err := os.ReadFile(jig)
	if err == nil {
		err = os.WriteFile(bin, data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	return writerAs{top: top, bin: bin, who: &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}}
}

// reachableTempDir is a new folder (mode 0755, removed at the end) in the
// first temp folder every user can reach: $TMPDIR may be private (0700, or
// under a private home), as t.TempDir's folders are.
func reachableTempDir(t *testing.T) string {
	t.Helper()
	for _, parent := range []string{os.TempDir(), "/tmp", "/var/tmp"} {
		if !searchableByAll(parent) {
			continue
		}
		dir, err := os.MkdirTemp(parent, "jig-nobody-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Fatalf("no temp folder every user can reach (tried %s, /tmp, /var/tmp)", os.TempDir())
	return ""
}

// searchableByAll says whether every folder from / down to dir lets
// anyone through (o+x).
func searchableByAll(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}

// TestHammerLockHeld: another process holds the session's lock past the
// wait. `jig session write` gives up after status.LockWait with exit 7 and
// one line naming the lock; the file is as before, and the same write
// succeeds once the lock is free.
func TestHammerLockHeld(t *testing.T) {
	t.Parallel() // it waits status.LockWait
	start := time.Now()
	state := t.TempDir()
	pid := strconv.Itoa(os.Getpid())
	dir := &status.Dir{Root: state}
	mustRun(t, jigProc(state, `{"state":"idle"}`, "session", "write", "--session", "held", "--pid", pid))
	before, err := os.ReadFile(dir.SessionPath("held"))
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := dir.Lock("held") // flock: the jig process below cannot take it
	if err != nil {
		t.Fatal(err)
	}
	asked := time.Now()
	r := runProc(t, jigProc(state, `{"state":"busy"}`, "session", "write", "--session", "held", "--pid", pid))
	waited := time.Since(asked)
	unlock()
	var tl tally
	refusedWrite(t, &tl, r, regexp.QuoteMeta(filepath.Join(state, status.LocksDir, "held.lock")), dir.SessionPath("held"), before)
	if waited < status.LockWait {
		t.Errorf("gave up after %s, before the %s wait", waited, status.LockWait)
	}
	freed := runProc(t, jigProc(state, `{"state":"busy"}`, "session", "write", "--session", "held", "--pid", pid))
	s, err := dir.Read("held")
	tl.add(freed.code, freed.code == 0 && err == nil && s.State == status.Busy)
	if freed.code != 0 || err != nil || s.State != status.Busy {
		t.Errorf("the write after the lock was freed: exit %d, %v", freed.code, err)
	}
	hammer.Figure(t, tl.row("lock held past the wait", fmt.Sprintf("session write gave up after %s, then the write once freed", waited.Round(time.Millisecond)),
		"old file intact, one line naming the lock; the later write kept"), start)
}

// TestHammerBadStdin: what a careless or hostile hook may pipe to `jig
// session write`. Each is refused whole: exit 4, one short line naming the
// field, no value longer than a few dozen bytes echoed, the old file byte
// for byte as it was.
func TestHammerBadStdin(t *testing.T) {
	start := time.Now()
	state := t.TempDir()
	pid := strconv.Itoa(os.Getpid())
	mustRun(t, jigProc(state, `{"state":"idle","switches":{"tools":{"bash":false}}}`, "session", "write", "--session", "bad", "--pid", pid))
	path := (&status.Dir{Root: state}).SessionPath("bad")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := "sk-live-" + strings.Repeat("x", 200)
	many := map[string]bool{}
	for i := range status.MaxSwitches + 1 {
		many[fmt.Sprintf("t%d", i)] = false
	}
	tooMany, _ := json.Marshal(map[string]any{"switches": map[string]any{"tools": many}})
	cases := []struct{ name, stdin, says string }{
		{"an argument value as a recent call's action", `{"recent":[{"at":"2030-01-01T00:00:00Z","tool":"bash","action":"export TOKEN=` + secret + `","outcome":"ok"}]}`, "recent action"},
		{"a relative output path", `{"outputs":[{"path":"src/x.go","action":"created","at":"2030-01-01T00:00:00Z","repo":null}]}`, "output path"},
		{"an empty switch name", `{"switches":{"tools":{"":false}}}`, "switches.tools"},
		{"more switches than the limit", string(tooMany), "switches.tools"},
		{"a number past float64", `{"context":{"tokens":1e400}}`, "context.tokens"},
		{"a wrong-typed name", `{"thinking":5}`, "thinking"},
		{"a secret where an object goes", `{"model":"` + secret + `"}`, "model"},
		{"stdin over 4 MiB", `{"cwd":"/` + strings.Repeat("a", status.MaxFileSize) + `"}`, "larger than"},
		{"a 100 000-digit number", `{"pid":1` + strings.Repeat("0", 100_000) + `}`, "pid"},
		{"a wrong-typed time", `{"startedAt":5}`, "startedAt"},
	}
	var tl tally
	for _, c := range cases {
		r := runProc(t, jigProc(state, c.stdin, "session", "write", "--session", "bad", "--pid", pid))
		ok := true
		if r.code != exit.BadInput || !writeErrorLine.MatchString(r.stderr) || !strings.Contains(r.stderr, c.says) || len(r.stderr) > 200 ||
			strings.Contains(r.stderr, secret[:60]) || r.stdout != "" {
			ok = false
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one short line naming %s", c.name, r.code, status.CutTo(r.stderr, 300), exit.BadInput, c.says)
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
			ok = false
			t.Errorf("%s: the old file changed (%v)", c.name, err)
		}
		tl.add(r.code, ok)
	}
	hammer.Figure(t, tl.row("bad stdin to session write", fmt.Sprintf("%d cases", len(cases)), "old file intact, one short line naming the field"), start)
}

// tally counts an attack's process runs for its figure: how many held, how
// many went wrong or blocked, and the exit codes they gave.
type tally struct {
	runs, wrong, blocked int64
	exits                hammer.Exits
}

// add counts one run that ended with code and held when ok.
func (tl *tally) add(code int, ok bool) {
	tl.runs++
	tl.exits.Add(code)
	if !ok {
		tl.wrong++
	}
}

// block counts one run that did not end within its bound.
func (tl *tally) block() {
	tl.runs++
	tl.blocked++
}

// row is the tally as a figure row; kept says what held in each good run.
func (tl *tally) row(attack, load, kept string) hammer.Row {
	return hammer.Row{Attack: attack, Load: load, Kept: fmt.Sprintf("%d of %d: %s", tl.runs-tl.wrong-tl.blocked, tl.runs, kept),
		Lost: tl.wrong, Blocked: tl.blocked, Exit: tl.exits.String()}
}
