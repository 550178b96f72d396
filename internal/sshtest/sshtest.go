// Package sshtest runs a real OpenSSH server on 127.0.0.1 for a test: its
// own host key, one authorized key, and the environment its sessions get
// (SetEnv), so a test reaches "another machine" the way a user does, with
// ssh -F and nothing else.
package sshtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
)

// Server is one running sshd and the client configuration that reaches it.
type Server struct {
	Host   string // the name the client configuration gives it
	Config string // the ssh_config file: ssh -F Config Host
	Port   int
	cmd    *exec.Cmd
	dir    string
	t      testing.TB
}

// SSHCommand is the ssh command line for JIG_SSH.
func (s *Server) SSHCommand() string { return "ssh -F " + s.Config }

// Start starts sshd as host, giving each session env (NAME=VALUE) and a
// HOME of its own. It is
// stopped when the test ends. Without sshd, or not as root (sshd's
// privilege separation needs it), the test is Missing.
func Start(t testing.TB, host string, env ...string) *Server {
	t.Helper()
	return StartShell(t, host, "", env...)
}

// StartShell is Start with shell as the user's login shell in sshd's eyes
// (what runs each command sent), "" for the user's own: sshd runs in a
// mount namespace of its own that sees a copy of /etc/passwd saying so, so
// nothing outside the test changes. Without unshare, the test is Missing.
func StartShell(t testing.TB, host, shell string, env ...string) *Server {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		sshd = "/usr/sbin/sshd"
	}
	if _, err := os.Stat(sshd); err != nil {
		pitest.Missing(t, "no sshd (Debian's openssh-server; .ci/provision installs it)")
	}
	if os.Geteuid() != 0 {
		pitest.Missing(t, "sshd runs as root here (its privilege separation)")
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	hostKey, clientKey := filepath.Join(dir, "host_key"), filepath.Join(dir, "client_key")
	for _, k := range []string{hostKey, clientKey} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(clientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	authorized := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(authorized, pub, 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	// A home of its own: the user's shell reads ~/.bashrc for an ssh
	// command, and a real one may do anything (pyenv's rehash waits on a
	// lock a killed session left), so the test's sessions get none.
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	setenv := "SetEnv HOME=" + home + " " + strings.Join(env, " ") + "\n"
	sshdConfig := filepath.Join(dir, "sshd_config")
	writeFile(t, sshdConfig, fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile none
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
PermitUserEnvironment no
%s`, port, hostKey, authorized, setenv))
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	clientConfig := filepath.Join(dir, "ssh_config")
	writeFile(t, clientConfig, fmt.Sprintf(`Host %s
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  BatchMode yes
  LogLevel ERROR
  ConnectTimeout 2
`, host, port, u.Username, clientKey))
	s := &Server{Host: host, Config: clientConfig, Port: port, dir: dir, t: t}
	argv := []string{sshd, "-D", "-e", "-f", sshdConfig}
	if shell != "" {
		argv = loginShell(t, dir, u.Username, shell, argv)
	}
	s.start(argv)
	t.Cleanup(s.Stop)
	return s
}

// start runs sshd in the foreground of its own process and waits until it
// takes connections.
func (s *Server) start(argv []string) {
	s.t.Helper()
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = &prefixed{t: s.t}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", s.Port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("sshd did not listen on port %d: %v", s.Port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends sshd (and so every session it serves); a second Stop does
// nothing.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// loginShell is argv run where user's login shell is shell: in a mount
// namespace whose /etc/passwd is a copy that says so.
func loginShell(t testing.TB, dir, user, shell string, argv []string) []string {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		pitest.Missing(t, "no unshare (util-linux): no login shell of the test's own")
	}
	if _, err := exec.LookPath(shell); err != nil {
		pitest.Missing(t, "no "+shell)
	}
	if err := exec.Command(unshare, "-m", "true").Run(); err != nil {
		pitest.Missing(t, "unshare -m is not allowed here: "+err.Error())
	}
	data, err := os.ReadFile("/etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if f := strings.Split(l, ":"); len(f) == 7 && f[0] == user {
			f[6] = shell
			lines[i] = strings.Join(f, ":")
		}
	}
	passwd := filepath.Join(dir, "passwd")
	writeFile(t, passwd, strings.Join(lines, "\n"))
	os.Chmod(passwd, 0o644)
	return append([]string{unshare, "-m", "sh", "-c", `mount --bind "$0" /etc/passwd && exec "$@"`, passwd}, argv...)
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func writeFile(t testing.TB, path, text string) {
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// prefixed logs sshd's complaints into the test's log.
type prefixed struct{ t testing.TB }

func (p *prefixed) Write(b []byte) (int, error) {
	p.t.Logf("sshd: %s", strings.TrimSpace(string(b)))
	return len(b), nil
}
