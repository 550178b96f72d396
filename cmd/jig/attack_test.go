package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/exit"
	"jig/hot"
	"jig/internal/hammer"
	"jig/status"
)

// The attack tests: what a hostile repository or a careless configuration
// plants where jig reads, and what it types where jig takes an id or an
// expression. Each answers at once with one clear line, and every write
// that should happen still happens. bench/reliability records their rows.

// runBound is how long one jig process may take here before it counts as
// blocked: far more than it needs on a loaded machine.
const runBound = 20 * time.Second

// runUnblocked runs cmd and reports whether it ended within runBound; when
// it did not, the planted paths are opened for writing, which ends an open
// blocked on a fifo there, and the run counts as blocked.
func runUnblocked(t *testing.T, cmd *exec.Cmd, planted string) (ran, bool) {
	t.Helper()
	var r ran
	ok := hammer.Unblocks(runBound, func() { r = runProc(t, cmd) }, planted)
	return r, ok
}

// TestAttackForeignFiles: .pi/settings.json, jig's configuration and
// .git/HEAD, each planted as a fifo, a folder, a link to /dev/zero, a
// sparse 1 GB file or a link to a fifo (a repository may hold such a
// link), under `jig ticket show`, `jig session write` and `jig pi bridge`.
// Each answers at once with a warning naming the file; the write is made;
// the bridge answers "where". (Before, a fifo blocked all three forever.)
func TestAttackForeignFiles(t *testing.T) {
	start := time.Now()
	pid := strconv.Itoa(os.Getpid())
	sources := []string{".pi/settings.json", "jig's configuration", ".git/HEAD"}
	var tl tally
	for _, source := range sources {
		for _, kind := range hammer.Plants {
			root := t.TempDir()
			state, repo, config := filepath.Join(root, "state"), filepath.Join(root, "repo"), filepath.Join(root, "jig.json")
			writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/feature/SHOP-1-x\n")
			writeFile(t, filepath.Join(repo, ".pi", "settings.json"), `{"jig":{}}`)
			writeFile(t, config, `{}`)
			planted := map[string]string{".pi/settings.json": filepath.Join(repo, ".pi", "settings.json"),
				"jig's configuration": config, ".git/HEAD": filepath.Join(repo, ".git", "HEAD")}[source]
			os.Remove(planted)
			hammer.Plant(t, planted, kind)
			env := append(jigEnv(state), "JIG_CONFIG="+config)
			what := source + " as " + kind
			warned := regexp.MustCompile(`jig: [a-z ]+: warning: ` + regexp.QuoteMeta(planted) + `: `)

			show := exec.Command("jig", "ticket", "show")
			show.Dir, show.Env = repo, env
			r, ok := runUnblocked(t, show, planted)
			switch {
			case !ok:
				tl.block()
				t.Errorf("%s: jig ticket show blocked", what)
			default:
				wantCode := map[bool]int{true: exit.None, false: exit.OK}[source == ".git/HEAD"] // no branch, no key
				good := r.code == wantCode && warned.MatchString(r.stderr)
				tl.add(r.code, good)
				if !good {
					t.Errorf("%s: jig ticket show: exit %d, stderr %q; want exit %d and a warning naming the file", what, r.code, r.stderr, wantCode)
				}
			}

			write := exec.Command("jig", "session", "write", "--session", "planted", "--pid", pid)
			write.Dir, write.Env, write.Stdin = repo, env, strings.NewReader(`{"state":"idle"}`)
			r, ok = runUnblocked(t, write, planted)
			switch {
			case !ok:
				tl.block()
				t.Errorf("%s: jig session write blocked", what)
			default:
				_, err := (&status.Dir{Root: state}).Read("planted")
				good := r.code == 0 && err == nil && warned.MatchString(r.stderr)
				tl.add(r.code, good)
				if !good {
					t.Errorf("%s: jig session write: exit %d, stderr %q, file %v", what, r.code, r.stderr, err)
				}
			}

			bridge := exec.Command("jig", "pi", "bridge")
			bridge.Dir, bridge.Env = repo, env
			var code int
			var answer string
			if !hammer.Unblocks(runBound, func() { code, answer = askWhere(t, bridge, pid) }, planted) {
				tl.block()
				t.Errorf("%s: jig pi bridge did not answer where", what)
				continue
			}
			good := code == 0 && strings.Contains(answer, filepath.Join(state, "sessions", "bridged.json"))
			tl.add(code, good)
			if !good {
				t.Errorf("%s: jig pi bridge: exit %d, answered %q", what, code, answer)
			}
		}
	}
	hammer.Figure(t, tl.row("foreign files planted",
		fmt.Sprintf("%d sources (%s) x %d plants (%s) x 3 commands (ticket show, session write, pi bridge where)",
			len(sources), strings.Join(sources, ", "), len(hammer.Plants), strings.Join(hammer.Plants, ", ")),
		"answered at once, a warning naming the file, the status written"), start)
}

// TestAttackForeignFilesElsewhere: the other files jig reads that it did
// not make — a Claude Code transcript and a Pi session in their folders, a
// transcript given to `session write --transcript`, the tmux.conf `install
// tmux --write` edits — each planted as a fifo, a folder, a link to
// /dev/zero, a sparse 1 GB file or a link to a fifo. Each command answers
// at once: a listing leaves the plant out (exit 1, none), the others say
// one line naming it.
func TestAttackForeignFilesElsewhere(t *testing.T) {
	start := time.Now()
	var tl tally
	for _, kind := range hammer.Plants {
		root := shortTempDir(t)               // so the paths in an error line are not cut
		state := filepath.Join(root, "state") // HOME is root
		for _, c := range []struct {
			name, planted string
			args          []string
			code          int
			says          string // a line naming the plant; "" for silence
		}{
			{"claude sessions", filepath.Join(root, ".claude", "projects", "-x", "s.jsonl"), []string{"claude", "sessions"}, exit.None, ""},
			{"pi sessions", filepath.Join(root, ".pi", "agent", "sessions", "--x--", "s.jsonl"), []string{"pi", "sessions"}, exit.None, ""},
			{"session write --transcript", filepath.Join(root, "t.jsonl"), []string{"session", "write", "--session", "s", "--transcript", filepath.Join(root, "t.jsonl")}, exit.BadInput, "session write"},
			{"install tmux --write", filepath.Join(root, "tmux.conf"), []string{"install", "tmux", "--write", "--config", filepath.Join(root, "tmux.conf")}, exit.Failed, "install tmux"},
		} {
			hammer.Plant(t, c.planted, kind)
			cmd := jigProc(state, "{}", c.args...)
			r, ok := runUnblocked(t, cmd, c.planted)
			if !ok {
				tl.block()
				t.Errorf("%s, %s: blocked", c.name, kind)
				continue
			}
			named := c.planted
			if c.name == "install tmux --write" {
				named, _ = filepath.EvalSymlinks(c.planted) // it edits the file a link names
			}
			line := regexp.MustCompile(`\Ajig: ` + c.says + `: (open )?` + regexp.QuoteMeta(named) + `: [^\n]+\n\z`)
			good := r.code == c.code && (c.says == "" && r.stderr == "" || c.says != "" && line.MatchString(r.stderr))
			tl.add(r.code, good)
			if !good {
				t.Errorf("%s, %s: exit %d, stderr %q; want exit %d", c.name, kind, r.code, r.stderr, c.code)
			}
		}
	}
	hammer.Figure(t, tl.row("foreign files planted, elsewhere",
		fmt.Sprintf("4 places (a Claude and a Pi transcript listed, a transcript to read, a tmux.conf to edit) x %d plants", len(hammer.Plants)),
		"answered at once: left out of a listing, or one line naming the file"), start)
}

// TestAttackPlantedLocks: a session's lock planted as a folder, a fifo, a
// socket or a link makes `jig session write` refuse the state dir (exit 3,
// one line naming the lock, at once; a folder gave exit 7 before). A
// regular lock nobody holds, of any mode or age, does not stop the write:
// before, one of mode 0444 or 000 refused every write of its session (the
// lock was opened for writing) and gc could not remove it either. As root,
// the writer runs as nobody, whom a mode stops.
func TestAttackPlantedLocks(t *testing.T) {
	start := time.Now()
	w := asWriter(t) // a short path: the lock's in an error line is not cut
	state := filepath.Join(w.top, "state")
	who := w.who
	write := func(session string) (ran, bool) {
		cmd := w.command(jigProc(state, `{"state":"idle"}`, "session", "write", "--session", session, "--pid", strconv.Itoa(os.Getpid())))
		return runUnblocked(t, cmd, filepath.Join(state, status.LocksDir, session+".lock"))
	}
	if r, _ := write("first"); r.code != 0 {
		t.Fatalf("first write: exit %d, %s", r.code, r.stderr)
	}
	dir := &status.Dir{Root: state}
	lock := func(name string) string { return filepath.Join(state, status.LocksDir, name+".lock") }
	owned := func(path string) { // planted by the writer's own user
		if who != nil {
			if err := os.Lchown(path, int(who.Credential.Uid), int(who.Credential.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var tl tally
	for _, kind := range []string{hammer.Folder, hammer.Fifo, hammer.FifoLink, "a socket"} {
		name := strings.NewReplacer(" ", "-").Replace(kind)
		if kind == "a socket" {
			l, err := net.Listen("unix", lock(name))
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
		} else {
			hammer.Plant(t, lock(name), kind)
		}
		owned(lock(name))
		r, ok := write(name)
		if !ok {
			tl.block()
			t.Errorf("the lock as %s: the write blocked", kind)
			continue
		}
		good := r.code == exit.StateDir && writeErrorLine.MatchString(r.stderr) && strings.Contains(r.stderr, lock(name))
		tl.add(r.code, good)
		if !good {
			t.Errorf("the lock as %s: exit %d, stderr %q; want exit %d and one line naming the lock", kind, r.code, r.stderr, exit.StateDir)
		}
	}
	for _, mode := range []os.FileMode{0, 0o400, 0o444, 0o644} {
		name := fmt.Sprintf("mode%o", mode)
		if err := os.WriteFile(lock(name), []byte("planted"), mode); err != nil {
			t.Fatal(err)
		}
		owned(lock(name))
		old := time.Now().Add(-365 * 24 * time.Hour)
		os.Chtimes(lock(name), old, old)
		r, ok := write(name)
		if !ok {
			tl.block()
			t.Errorf("a lock of mode %o: the write blocked", mode)
			continue
		}
		_, err := dir.Read(name)
		good := r.code == 0 && r.stderr == "" && err == nil
		tl.add(r.code, good)
		if !good {
			t.Errorf("a year-old lock of mode %o nobody holds: exit %d, stderr %q, file %v; want the write made", mode, r.code, r.stderr, err)
		}
	}
	hammer.Figure(t, tl.row("planted locks", "a folder, a fifo, a link, a socket; regular files of mode 000, 400, 444, 644, a year old, nobody holding them"+
		map[bool]string{true: " (writer as nobody)", false: ""}[who != nil],
		"not regular: exit 3 naming the lock; regular: the write made"), start)
}

// TestAttackEmptyIDs: every command given an empty argument, and every
// flag that takes an ID given an empty value, as the processes a script
// with an unset variable runs: exit 2, one line naming what is empty, and
// nothing done (no request sent, no file written).
func TestAttackEmptyIDs(t *testing.T) {
	start := time.Now()
	state := t.TempDir()
	mustRun(t, jigProc(state, `{"state":"idle","terminals":[{"from":"HC_TERMINAL_ID","id":"t7"}]}`, "session", "write", "--session", "s1", "--pid", strconv.Itoa(os.Getpid())))
	before := stateFiles(t, state)
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	var tl tally
	for _, c := range emptyCases(app) {
		cmd := jigProc(state, "{}", c.args[1:]...)
		cmd.Env = append(cmd.Env, "HC_TERMINAL_ID=t7") // the session an empty --terminal used to reach
		r := runProc(t, cmd)
		good := r.code == exit.Usage && r.stdout == "" && regexp.MustCompile(`\Ajig: [a-z -]+: `+regexp.QuoteMeta(c.what)+` is empty\n\z`).MatchString(r.stderr)
		tl.add(r.code, good)
		if !good {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line: %s is empty", c.args, r.code, r.stdout, r.stderr, c.what)
		}
	}
	if after := stateFiles(t, state); !slices.Equal(before, after) {
		tl.wrong++
		t.Errorf("the state dir changed: %v, was %v", after, before)
	}
	hammer.Figure(t, tl.row("empty IDs and arguments", fmt.Sprintf("%d command lines: every command's empty argument, every ID flag's empty value", tl.runs),
		"one line naming what is empty, nothing done"), start)
}

// stateFiles lists the files under state, for seeing that nothing changed.
func stateFiles(t *testing.T, state string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			files = append(files, fmt.Sprintf("%s %d %s", p, fi.Size(), fi.ModTime()))
		}
		return nil
	})
	return files
}

// TestAttackRunawayOutput: --jq expressions and --format templates that
// never end, print without end or grow without end, as a status line runs
// them: each stops at its bound with exit 4 and one line, prints nothing
// on stdout, and its process ends (before, repeat(.) died of "out of
// memory" with a stack dump and exit 2; def f: f; f never ended). The short
// form gives them 300 ms, the full form the default 1 s.
func TestAttackRunawayOutput(t *testing.T) {
	start := time.Now()
	state := t.TempDir()
	mustRun(t, jigProc(state, `{"state":"busy","terminals":[{"from":"HC_TERMINAL_ID","id":"t1"}]}`, "session", "write", "--session", "s1", "--pid", strconv.Itoa(os.Getpid())))
	timeout := map[bool]string{true: "1s", false: "300ms"}[hammer.Full()]
	var tl tally
	var peak int64 // the largest resident set of a run, KiB
	for _, c := range [][]string{
		{"--jq", "repeat(.)"}, {"--jq", "def f: f; f"}, {"--jq", "last(range(1e10))"}, {"--jq", "[range(1e9)]"}, {"--jq", "def f: [f]; f"},
		{"--format", "{{range 1000000000}}{{end}}"}, {"--format", "{{range 100000}}{{range 100000}}{{end}}{{end}}"},
		{"--format", "{{range 1000000000}}{{json $}}{{end}}"},
	} {
		cmd := jigProc(state, "", append([]string{"session", "for-terminal", "t1"}, c...)...)
		cmd.Env = append(cmd.Env, "JIG_RENDER_TIMEOUT="+timeout)
		r, ok := runUnblocked(t, cmd, "")
		if !ok {
			tl.block()
			t.Errorf("%s %s: still running", c[0], c[1])
			continue
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss)
		}
		good := r.code == exit.BadInput && r.stdout == "" && regexp.MustCompile(`\Ajig: session for-terminal: `+c[0]+`: stopped [^\n]+\n\z`).MatchString(r.stderr)
		tl.add(r.code, good)
		if !good {
			t.Errorf("%s %s: exit %d, stdout %d bytes, stderr %q; want exit 4 and one line", c[0], c[1], r.code, len(r.stdout), status.CutTo(r.stderr, 300))
		}
	}
	hammer.Figure(t, tl.row("runaway --jq and --format", fmt.Sprintf("%d expressions and templates, a %s bound", tl.runs, timeout),
		fmt.Sprintf("one line, nothing printed, at most %d MiB resident", peak>>10)), start)
}

// askWhere runs a bridge through hello, where and end, and returns its exit
// code and its answer to where; notices before it (a ticket problem) are
// passed over.
func askWhere(t *testing.T, cmd *exec.Cmd, pid string) (int, string) {
	t.Helper()
	cmd.Stdin = strings.NewReader(`{"type":"hello","session":"bridged","pid":` + pid + `}` + "\n" + `{"type":"where"}` + "\n" + `{"type":"end","keep":true}` + "\n")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answer := ""
	for sc := bufio.NewScanner(out); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), `{"type":"where"`) {
			answer = sc.Text()
		}
	}
	cmd.Wait()
	return cmd.ProcessState.ExitCode(), answer
}

// writeFile writes content at path, making the folders above it.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// shortTempDir is a temp folder with a short path, removed after the test.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "jig")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestAttackUsersConfigFiles: every installer that edits a file of the
// user's is given one it must not edit — a key twice, a comment where the
// agent takes plain JSON, a read-only file — and must refuse it with one
// line and exit 4, the file byte for byte as it was. Before, Claude's
// installer edited the first of two "hooks" (Claude reads the last), called
// a comment "not a JSON object", and edited a read-only file; a linked
// settings.json gave exit 7 where a linked config.toml gave 3.
func TestAttackUsersConfigFiles(t *testing.T) {
	start := time.Now()
	var tl tally
	for _, c := range []struct{ host, file, data string }{
		{"claude", ".claude/settings.json", `{"hooks": {}, "hooks": {"Stop": []}}`},
		{"claude", ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "*", "matcher": "Bash", "hooks": []}]}}`},
		{"claude", ".claude/settings.json", "{\n  // mine\n  \"model\": \"opus\"\n}"},
		{"claude", ".claude/settings.json", "{\n  \"model\": \"opus\",\n}"},
		{"codex", ".codex/hooks.json", `{"hooks": {"Stop": []}, "hooks": {}}`},
		{"codex", ".codex/hooks.json", "{/* mine */}"},
		{"claude", ".claude/settings.json", "{}\n" + readOnly},
		{"codex", ".codex/config.toml", "model = \"gpt\"\n" + readOnly},
		{"tmux", ".tmux.conf", "set -g mouse on\n" + readOnly},
		{"kitty", ".config/kitty/kitty.conf", "font_size 12\n" + readOnly},
	} {
		home := t.TempDir()
		path := filepath.Join(home, c.file)
		data, mode := strings.CutSuffix(c.data, readOnly)
		perm := os.FileMode(0o600)
		if mode {
			perm = 0o400
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), perm); err != nil {
			t.Fatal(err)
		}
		args := []string{"install", c.host}
		if c.host == "tmux" || c.host == "kitty" {
			args = append(args, "--write")
		}
		cmd := jigProc(filepath.Join(home, "state"), "", args...)
		cmd.Env = append(cmd.Env, "CODEX_HOME=", "CLAUDE_CONFIG_DIR=", "JIG_BIN=/opt/jig")
		r := runProc(t, cmd)
		after, _ := os.ReadFile(path)
		ok := r.code == 4 && strings.Count(r.stderr, "\n") == 1 && r.stdout == "" && string(after) == data
		if !ok {
			t.Errorf("install %s over %q: exit %d, stdout %q, stderr %q; file now %q", c.host, c.data, r.code, r.stdout, r.stderr, after)
		}
		tl.add(r.code, ok)
	}
	hammer.Figure(t, tl.row("users' config files", "install claude, codex, tmux, kitty over a key twice, a comment or trailing comma (plain-JSON agents), a read-only file",
		"refused whole: one line, exit 4, the file unchanged"), start)
}

// readOnly marks a case's file as mode 0400.
const readOnly = "\x00read-only"

// TestAttackSpacedRollout: a Codex rollout whose lines are spaced JSON
// (`"type": "session_meta"`, one record a line still) is a rollout: `jig
// codex show` prints for it what it prints for the compact one. Before, no
// line was recognised and it was "not a Codex rollout".
func TestAttackSpacedRollout(t *testing.T) {
	start := time.Now()
	compact, err := os.ReadFile("../../codex/rollout/testdata/exec-resume.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var spaced bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSuffix(compact, []byte("\n")), []byte("\n")) {
		var b bytes.Buffer
		if err := json.Indent(&b, line, "", "  "); err != nil {
			t.Fatal(err)
		}
		spaced.Write(bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte(" ")))
		spaced.WriteByte('\n')
	}
	var tl tally
	show := func(name string, data []byte) ran {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return runProc(t, jigProc(filepath.Join(dir, "state"), "", "codex", "show", path))
	}
	want, got := show("compact.jsonl", compact), show("spaced.jsonl", spaced.Bytes())
	ok := want.code == 0 && got.code == 0 && strings.ReplaceAll(got.stdout, "spaced.jsonl", "compact.jsonl") == want.stdout
	if !ok {
		t.Errorf("codex show of the spaced rollout: exit %d\n%s%s\nwant exit %d\n%s", got.code, got.stdout, got.stderr, want.code, want.stdout)
	}
	tl.add(got.code, ok)
	hammer.Figure(t, tl.row("spaced rollout", "a real Codex rollout, every line respaced (\"type\": \"session_meta\")",
		"read as the compact one"), start)
}
