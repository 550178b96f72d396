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
	s.start(sshd, sshdConfig)
	t.Cleanup(s.Stop)
	return s
}

// start runs sshd in the foreground of its own process and waits until it
// takes connections.
func (s *Server) start(sshd, config string) {
	s.t.Helper()
	s.cmd = exec.Command(sshd, "-D", "-e", "-f", config)
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
