package testsrc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// Tmux is a private tmux server (-L, a socket of its own), killed when the
// test ends, so tests never touch the user's tmux or each other's.
type Tmux struct {
	t      testing.TB
	Socket string
	env    []string
}

// NewTmux names a private server for the test; its first command starts it.
func NewTmux(t testing.TB, name string, env []string) *Tmux {
	s := &Tmux{t: t, Socket: fmt.Sprintf("jigtest-%d-%s", rand.Uint32(), name), env: env}
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
