package testsrc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Tmux is a private tmux server (-L, a socket of its own), killed when the
// test ends, so tests never touch the user's tmux or each other's. Nor
// the user's home: the server reads no ~/.tmux.conf unless its first
// command names a config (-f), and a HOME that is the user's own (or none)
// becomes a folder of the test's, so the shells in its panes read no
// ~/.bashrc of the machine's (one that waits on a lock blocks a test).
type Tmux struct {
	t       testing.TB
	Socket  string
	env     []string
	started bool
}

// NewTmux names a private server for the test; its first command starts it.
func NewTmux(t testing.TB, name string, env []string) *Tmux {
	s := &Tmux{t: t, Socket: fmt.Sprintf("jigtest-%d-%s", rand.Uint32(), name), env: privateHome(t, env)}
	t.Cleanup(func() {
		cmd := exec.Command("tmux", "-L", s.Socket, "kill-server")
		cmd.Env = env
		cmd.Run() // the server may be gone already
	})
	return s
}

// Run runs a tmux command against the server and returns its output; a
// failure ends the test with tmux's own words.
func (s *Tmux) Run(args ...string) string {
	s.t.Helper()
	if !s.started && (len(args) == 0 || args[0] != "-f") {
		args = append([]string{"-f", "/dev/null"}, args...)
	}
	s.started = true
	cmd := exec.Command("tmux", append([]string{"-L", s.Socket}, args...)...)
	cmd.Env = s.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("tmux -L %s %s: %v: %s", s.Socket, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimRight(string(out), "\n")
}

// privateHome is env with HOME a folder of the test's where it is the
// user's own or missing; a HOME the test chose stays.
func privateHome(t testing.TB, env []string) []string {
	own, _ := os.UserHomeDir()
	out := make([]string, 0, len(env)+1)
	set := false
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			if home == "" || home == own {
				continue
			}
			set = true
		}
		out = append(out, kv)
	}
	if !set {
		out = append(out, "HOME="+t.TempDir())
	}
	return out
}
