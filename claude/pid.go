package claude

import (
	"strconv"

	"jig/hook"
)

// ClaudePID is the Claude Code process a hook or the statusLine command
// runs under: $CLAUDE_PID when Claude sets it (2.1.x does for hooks), else
// the parent, or the parent's parent when the parent is the shell Claude
// ran the command line in.
func ClaudePID(getenv func(string) string) int {
	if pid, err := strconv.Atoi(getenv("CLAUDE_PID")); err == nil && pid > 0 {
		return pid
	}
	return hook.Parent()
}
