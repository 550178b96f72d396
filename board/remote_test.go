package board_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/board"
	"jig/internal/sshtest"
	"jig/internal/testsrc"
)

func TestMain(m *testing.M) { testsrc.Main(m) }

// agent is a process standing in for a live agent: the sessions name it as
// theirs, so every reader takes them for live.
func agent(t *testing.T) int {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

func stateDir(t *testing.T) string {
	d := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

// jigIn runs jig with the state dir given and returns its stdout.
func jigIn(t *testing.T, jig, state, stdin string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(jig, args...)
	cmd.Env = append(append(os.Environ(), "JIG_STATE_DIR="+state, "TMUX=", "TMUX_PANE=", "HC_TERMINAL_ID=",
		"HERDR_PANE_ID=", "KITTY_WINDOW_ID=", "WEZTERM_PANE="), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("jig %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), err
}

func rowsOf(t *testing.T, out string) map[string]board.Row {
	t.Helper()
	var rows []board.Row
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	m := map[string]board.Row{}
	for _, r := range rows {
		m[r.Host+"/"+r.Session] = r
	}
	return m
}

// TestBoardOverSSH: a real sshd on 127.0.0.1 stands for another machine
// whose jig has its own state dir. Its rows come with their host, a request
// reaches its session and is answered, and once sshd stops the host shows
// as down within the host timeout while the local rows stay.
func TestBoardOverSSH(t *testing.T) {
	jig := testsrc.Jig(t)
	local, remote := stateDir(t), stateDir(t)
	srv := sshtest.Start(t, "devbox", "JIG_STATE_DIR="+remote, "PATH="+filepath.Dir(jig)+":/usr/bin:/bin")
	pid := strconv.Itoa(agent(t))
	if _, err := jigIn(t, jig, local, `{"state":"busy"}`, nil, "session", "write", "--session", "here-1", "--pid", pid); err != nil {
		t.Fatal(err)
	}
	if _, err := jigIn(t, jig, remote, `{"state":"idle","model":{"provider":"p","id":"m","name":"Remote Model"}}`, nil,
		"session", "write", "--session", "there-1", "--pid", pid); err != nil {
		t.Fatal(err)
	}
	sshEnv := []string{"JIG_SSH=" + srv.SSHCommand()}
	// A first connection on a loaded machine may take longer than the 2 s a
	// status bar allows: the test gives the live host more.
	out, err := jigIn(t, jig, local, "", sshEnv, "board", "--json", "--host", "devbox", "--host-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, out)
	host, _ := os.Hostname()
	here, there := rows[host+"/here-1"], rows["devbox/there-1"]
	if !here.Local || here.State != "busy" {
		t.Errorf("local row %+v in %s", here, out)
	}
	if there.Local || there.Model != "Remote Model" || there.State != "idle" {
		t.Errorf("remote row %+v in %s", there, out)
	}

	steer := board.Steer{SSH: board.SSH{Command: srv.SSHCommand(), Timeout: 20 * time.Second}, Now: time.Now}
	if err := steer.SwitchTool(context.Background(), there, "bash", false); err != nil {
		t.Fatal(err)
	}
	// the remote session takes the request, as its agent's hook would
	answer, err := jigIn(t, jig, remote, `{"tools":["bash","read"],"active":["bash","read"],"hidden":[],"skills":[]}`, nil,
		"request", "handle", "--session", "there-1")
	if err != nil || !strings.Contains(answer, `"bash":false`) {
		t.Fatalf("the remote session got no request: %s %v", answer, err)
	}
	out, _ = jigIn(t, jig, local, "", sshEnv, "board", "--json", "--host", "devbox", "--host-timeout", "20s")
	if r := rowsOf(t, out)["devbox/there-1"]; len(r.Tools) != 1 || r.Tools[0] != (board.ToolName{Name: "bash", Off: true}) {
		t.Errorf("after the request the remote row's tools are %+v", r.Tools)
	}

	srv.Stop()
	start := time.Now()
	out, err = jigIn(t, jig, local, "", sshEnv, "board", "--json", "--host", "devbox")
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	rows = rowsOf(t, out)
	if rows[host+"/here-1"].Session == "" {
		t.Errorf("the local row went with the host: %s", out)
	}
	if down := rows["devbox/"]; down.Err == "" {
		t.Errorf("the stopped host is not shown down: %s", out)
	}
	if took > board.HostTimeout+3*time.Second {
		t.Errorf("a down host held the board up for %v", took)
	}
}

// TestSlowHostNeverHoldsUpTheBoard: a host whose ssh never answers is cut
// off at the host timeout, its whole process group with it.
func TestSlowHostNeverHoldsUpTheBoard(t *testing.T) {
	script := filepath.Join(t.TempDir(), "slow-ssh")
	os.WriteFile(script, []byte("#!/bin/sh\nsleep 30 &\nsleep 30\n"), 0o755)
	s := board.SSH{Command: script, Timeout: 300 * time.Millisecond}
	start := time.Now()
	_, err := s.Remote(context.Background(), "devbox")
	if err == nil || !strings.Contains(err.Error(), "no answer within") {
		t.Errorf("err %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestRemoteFishShell: the remote user's login shell is fish, which reads
// quotes and backslashes otherwise than sh. A session id full of what any
// shell would read (quotes, \', $( ), ;) reaches the remote jig as the
// same word: the board lists it, its request reaches exactly that session,
// and nothing of the id runs there.
func TestRemoteFishShell(t *testing.T) {
	jig := testsrc.Jig(t)
	local, remote := stateDir(t), stateDir(t)
	work := t.TempDir()
	srv := sshtest.StartShell(t, "fishbox", "/usr/bin/fish", "JIG_STATE_DIR="+remote, "PATH="+filepath.Dir(jig)+":/usr/bin:/bin")
	if out, err := exec.Command("sh", "-c", srv.SSHCommand()+` fishbox 'echo $FISH_VERSION'`).Output(); err != nil ||
		strings.TrimSpace(string(out)) == "" {
		t.Fatalf("the remote shell is not fish: %q %v", out, err)
	}
	pid := strconv.Itoa(agent(t))
	id := `we\'ird'; touch ` + work + `/pwned; echo $(touch ` + work + `/pwned2) "x`
	if _, err := jigIn(t, jig, remote, `{"state":"idle"}`, nil, "session", "write", "--session", id, "--pid", pid); err != nil {
		t.Fatal(err)
	}
	out, err := jigIn(t, jig, local, "", []string{"JIG_SSH=" + srv.SSHCommand()}, "board", "--json", "--host", "fishbox", "--host-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	there := rowsOf(t, out)["fishbox/"+id]
	if there.Session != id {
		t.Fatalf("the session is not listed by its id: %s", out)
	}
	steer := board.Steer{SSH: board.SSH{Command: srv.SSHCommand(), Timeout: 20 * time.Second}, Now: time.Now}
	reqID, err := steer.SendTool(context.Background(), there, "bash", false)
	if err != nil || reqID == "" {
		t.Fatalf("the request over fish: %q %v", reqID, err)
	}
	answer, err := jigIn(t, jig, remote, `{"tools":["bash"],"active":["bash"],"hidden":[],"skills":[]}`, nil,
		"request", "handle", "--session", id)
	if err != nil || !strings.Contains(answer, `"bash":false`) || !strings.Contains(answer, reqID) {
		t.Errorf("the request did not reach that session: %s %v", answer, err)
	}
	err = srvJump(srv, id)
	if err == nil || !strings.Contains(err.Error(), "no way to focus") {
		t.Errorf("--jump over fish reached another session, or none: %v", err)
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(work, f)); err == nil {
			t.Errorf("a part of the id ran on the remote: %s", f)
		}
	}
}

// srvJump asks the remote jig to jump to session id, as the board does.
func srvJump(srv *sshtest.Server, id string) error {
	s := board.SSH{Command: srv.SSHCommand(), Timeout: 20 * time.Second}
	return s.Jump(context.Background(), board.Row{Host: srv.Host, Session: id})
}

// TestALeftoverHoldingSSHsOutputDoesNotHoldTheBoard: a JIG_SSH helper that
// starts a program of its own session, which keeps ssh's stdout open, is
// read to its end when the helper ends, and the board goes on.
func TestALeftoverHoldingSSHsOutputDoesNotHoldTheBoard(t *testing.T) {
	dir := t.TempDir()
	script, pidFile := filepath.Join(dir, "ssh"), filepath.Join(dir, "leftover.pid")
	os.WriteFile(script, []byte("#!/bin/sh\nsetsid sleep 600 &\necho $! >> "+pidFile+"\necho '[{\"session\":\"s1\",\"state\":\"idle\"}]'\n"), 0o755)
	t.Cleanup(func() {
		data, _ := os.ReadFile(pidFile)
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // the test's own bound: it hung before
	defer cancel()
	rows, err := board.SSH{Command: script, Timeout: time.Minute}.Remote(ctx, "devbox")
	if err != nil || len(rows) != 1 || rows[0].Session != "s1" {
		t.Errorf("rows %+v, %v", rows, err)
	}
	// A helper that never answers and leaves such a leftover: down at the
	// host timeout, not when the leftover lets go.
	os.WriteFile(script, []byte("#!/bin/sh\nsetsid sleep 600 &\necho $! >> "+pidFile+"\nsleep 600\n"), 0o755)
	if _, err := (board.SSH{Command: script, Timeout: 300 * time.Millisecond}).Remote(ctx, "devbox"); err == nil ||
		!strings.Contains(err.Error(), "no answer within 300ms") {
		t.Errorf("err %v", err)
	}
	if ctx.Err() != nil {
		t.Error("the board waited for the leftover")
	}
}

// TestAnOlderRemoteJigIsAskedPlainly: over a real sshd, the board asks the
// host's jig for the slim listing, and its rows are the rows the plain
// listing gives. A jig older than --slim refuses it as every jig refuses a
// flag it does not know (urfave/cli's "flag provided but not defined",
// exit code 2): here the real jig there is asked for a flag that no jig
// knows. The board then asks for the plain listing, gives the same rows,
// and asks that host plainly from then on.
func TestAnOlderRemoteJigIsAskedPlainly(t *testing.T) {
	jig := testsrc.Jig(t)
	remote := stateDir(t)
	srv := sshtest.Start(t, "devbox", "JIG_STATE_DIR="+remote, "PATH="+filepath.Dir(jig)+":/usr/bin:/bin")
	pid := strconv.Itoa(agent(t))
	status := `{"state":"busy","cwd":"/srv/shop","model":{"provider":"p","id":"m","name":"Remote Model"},
	"attention":{"kind":"permission","tool":"Bash"},"recent":[{"tool":"Bash","outcome":"ok"},{"tool":"Read","outcome":"ok"}],
	"outputs":[{"path":"/srv/shop/a.go","action":"changed","repo":"/srv/shop"}]}`
	for _, id := range []string{"there-1", "there-2"} {
		if _, err := jigIn(t, jig, remote, status, nil, "session", "write", "--session", id, "--pid", pid); err != nil {
			t.Fatal(err)
		}
	}
	// ssh, with each command it is given written down
	dir := t.TempDir()
	script, log := filepath.Join(dir, "ssh"), filepath.Join(dir, "asked")
	os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+log+"\nexec "+srv.SSHCommand()+" \"$@\"\n"), 0o755)
	asked := func() string {
		data, _ := os.ReadFile(log)
		os.Remove(log)
		return string(data)
	}
	ssh := board.SSH{Command: script, Timeout: 20 * time.Second}
	ctx := context.Background()

	b := &board.Board{Hosts: []string{"devbox"}, SSH: ssh}
	slim := b.HostRows(ctx, "devbox")
	if got := asked(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "session list --json --slim") {
		t.Errorf("the board asked:\n%s", got)
	}
	if len(slim) != 2 || slim[0].Err != "" || slim[0].Model != "Remote Model" || slim[0].LastTool != "Bash" || len(slim[0].Tools) != 2 {
		t.Fatalf("slim rows %+v", slim)
	}

	board.AskForSlimWith(t, "--slim-from-the-future")
	b = &board.Board{Hosts: []string{"devbox"}, SSH: ssh}
	plain := b.HostRows(ctx, "devbox")
	got := asked()
	if lines := strings.Split(strings.TrimSpace(got), "\n"); len(lines) != 2 || !strings.HasSuffix(lines[0], "--json --slim-from-the-future") ||
		!strings.HasSuffix(lines[1], "session list --json") {
		t.Errorf("the board asked:\n%s", got)
	}
	byID := func(rows []board.Row) map[string]board.Row {
		m := map[string]board.Row{}
		for _, r := range rows {
			m[r.Session] = r
		}
		return m
	}
	if !reflect.DeepEqual(byID(plain), byID(slim)) {
		t.Errorf("the plain listing's rows %+v\nthe slim listing's %+v", plain, slim)
	}
	b.HostRows(ctx, "devbox")
	if got := asked(); strings.Count(got, "\n") != 1 || strings.Contains(got, "--slim") {
		t.Errorf("once refused, the board asked:\n%s", got)
	}
}
