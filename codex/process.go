package codex

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"jig/status"
)

// Which process a Codex session is, and which terminal it runs in.
//
// `codex exec`, and a TUI with no background server, run their hooks
// themselves: the session is the hook's parent, in the hook's environment.
// Since 0.157 an interactive TUI is a client of Codex's background server
// (`codex app-server --managed-daemon`, one per CODEX_HOME; the first TUI
// starts it, with its own environment, and it outlives every TUI). The
// server runs the hooks of every TUI's sessions (codex-rs
// hooks/src/engine/command_runner.rs spawns them from the server's
// process, in the server's environment), so the hook's parent and
// TMUX_PANE are the server's and the first TUI's for every session, and
// Codex tells a hook nothing of the client. jig finds the TUI itself: a
// `codex` process of the same user, CODEX_HOME and working folder as the
// session, not the server, and not already the live process of another
// session's file; the session keeps the TUI it was given while that runs.
// When no TUI or several remain, the session is filed under the server,
// with no terminal: a wrong pane is worse than none.

// procMax bounds what jig reads of a process's cmdline and environ.
const procMax = 1 << 20

// owner is the session's process and the environment its terminals are
// read from.
func (h *Hooks) owner(in *Input) (int, func(string) string) {
	if !isBackgroundServer(h.PID) {
		return h.PID, h.Getenv
	}
	if tui := h.tuiOf(in); tui > 0 {
		env := environOf(tui)
		return tui, func(k string) string { return env[k] }
	}
	return h.PID, withoutTerminals(h.Getenv)
}

// isBackgroundServer reports whether pid is Codex's background server.
func isBackgroundServer(pid int) bool {
	args := argsOf(pid)
	return len(args) > 0 && filepath.Base(args[0]) == "codex" && slices.Contains(args, "app-server") &&
		slices.Contains(args, "--managed-daemon")
}

// tuiOf is the TUI whose session the hook is about, 0 when not one alone.
func (h *Hooks) tuiOf(in *Input) int {
	home := filepath.Clean(Home(h.Getenv))
	var tuis []int
	for _, pid := range processes() {
		if pid != h.PID && isTUI(argsOf(pid)) && sameFolder(pid, in.CWD) {
			env := environOf(pid)
			if filepath.Clean(Home(func(k string) string { return env[k] })) == home {
				tuis = append(tuis, pid)
			}
		}
	}
	if len(tuis) == 0 {
		return 0
	}
	live := status.Liveness{Host: h.Host}.Memo()
	var mine int
	h.Dir.EachHead(false, func(hd *status.Head, err error) error {
		if err != nil || !slices.Contains(tuis, hd.PID) || !live.Alive(hd.Status()) {
			return nil
		}
		if hd.Session == in.SessionID {
			mine = hd.PID
		} else {
			tuis = slices.DeleteFunc(tuis, func(p int) bool { return p == hd.PID }) // another session's
		}
		return nil
	})
	switch {
	case mine > 0:
		return mine
	case len(tuis) == 1:
		return tuis[0]
	}
	return 0
}

// isTUI reports whether a command line is Codex's own binary run as the
// interactive TUI: not the server, not `codex exec` (which runs its own
// hooks), not the npm launcher (node).
func isTUI(args []string) bool {
	if len(args) == 0 || filepath.Base(args[0]) != "codex" {
		return false
	}
	for _, a := range args[1:] {
		switch a {
		case "app-server", "exec", "e", "mcp-server", "mcp", "daemon":
			return false
		}
	}
	return true
}

// sameFolder reports whether pid works in dir (an unknown dir matches).
func sameFolder(pid int, dir string) bool {
	if dir == "" {
		return true
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	return err == nil && filepath.Clean(cwd) == filepath.Clean(dir)
}

// processes are the pids /proc lists.
func processes() []int {
	names, _ := readDirNames("/proc")
	var pids []int
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil && pid > 1 {
			pids = append(pids, pid)
		}
	}
	return pids
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// argsOf is a process's command line, nil when it cannot be read (another
// user's process, or one that ended).
func argsOf(pid int) []string {
	data := readProc(pid, "cmdline")
	if len(data) == 0 {
		return nil
	}
	var args []string
	for _, a := range bytes.Split(bytes.TrimSuffix(data, []byte{0}), []byte{0}) {
		args = append(args, string(a))
	}
	return args
}

// environOf is a process's environment (only a process of the same user's
// can be read).
func environOf(pid int) map[string]string {
	env := map[string]string{}
	for _, kv := range bytes.Split(readProc(pid, "environ"), []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte("=")); ok {
			env[string(k)] = string(v)
		}
	}
	return env
}

func readProc(pid int, name string) []byte {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/" + name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, procMax))
	return data
}

// withoutTerminals is getenv without the terminal ids the writer reads
// (package terminal's variables): the server's are the first TUI's, not
// the session's.
func withoutTerminals(getenv func(string) string) func(string) string {
	return func(k string) string {
		switch k {
		case "HC_TERMINAL_ID", "HERDR_PANE_ID", "TMUX_PANE", "KITTY_WINDOW_ID", "WEZTERM_PANE":
			return ""
		}
		return getenv(k)
	}
}
