package herdr1

import (
	"os/exec"
	"syscall"

	"jig/status"
)

// Herdr hears jig when Herdr emits an event (startup, focus, an agent's
// status change) and the plugin runs `jig herdr sync`; between them its
// state would go stale. So every writer reports too: when a session that
// runs in a Herdr pane (it recorded HERDR_PANE_ID) changes state or
// attention, or ends, Reporter starts `jig herdr sync --pane ID` for that
// pane, detached (a session of its own, no stdin or stdout), and never
// waits for it: the agent's hook is not held, and that sync's herdr calls
// are bounded (Timeout, OutputLimit). The status file is written first;
// Herdr's --seq orders the reports however they arrive.

// Reporter is status.Dir's Changed for jig's writers: jig is the jig to run
// (an absolute path, "" for none), env the environment it runs with, both
// asked for only at a change Herdr is to hear of: a hook's write outside
// Herdr looks nothing up.
func Reporter(jig func() string, env func() []string) func(prev, next *status.Status) {
	return func(prev, next *status.Status) {
		s := next
		if s == nil {
			s = prev
		}
		pane, socket := herdrPane(s)
		if pane == "" || (prev != nil && next != nil && sameForHerdr(prev, next)) {
			return
		}
		bin := jig()
		if bin == "" {
			return
		}
		cmd := exec.Command(bin, "herdr", "sync", "--pane", pane)
		cmd.Env = env()
		if socket != "" {
			cmd.Env = append(cmd.Env, "HERDR_SOCKET_PATH="+socket) // the session's Herdr, not another one
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if cmd.Start() == nil {
			go cmd.Wait() // a long-lived writer (the Pi bridge) leaves no zombie
		}
	}
}

// herdrPane is the Herdr pane a status recorded, and its server's socket.
func herdrPane(s *status.Status) (pane, socket string) {
	if s == nil {
		return "", ""
	}
	for _, t := range s.Terminals {
		if t.From == PaneVar {
			return t.ID, t.Instance
		}
	}
	return "", ""
}

// sameForHerdr reports whether two statuses show Herdr the same: its agent
// state, and the wait (kind and tool) behind a blocked one.
func sameForHerdr(a, b *status.Status) bool {
	if AgentState(a) != AgentState(b) {
		return false
	}
	if a.Attention == nil || b.Attention == nil {
		return true
	}
	return a.Attention.Kind == b.Attention.Kind && a.Attention.Tool == b.Attention.Tool
}
