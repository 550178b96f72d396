package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// Parent is the agent process that runs a hook command: the parent,
// or the parent's parent when the parent is the shell the agent ran the
// command line in (Codex's hooks have no variable that names it).
func Parent() int {
	ppid := os.Getppid()
	if isShell(commOf(ppid)) {
		if up := parentOf(ppid); up > 1 {
			return up
		}
	}
	return ppid
}

func isShell(comm string) bool {
	switch filepath.Base(comm) {
	case "sh", "bash", "dash", "zsh", "ash", "ksh", "fish":
		return true
	}
	return false
}

// commOf is a process's command name (/proc/<pid>/comm), "" when unknown.
func commOf(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(data))
}

// parentOf is a process's parent (field 4 of /proc/<pid>/stat), 0 when unknown.
func parentOf(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')') // the name may hold spaces and parentheses
	if i < 0 {
		return 0
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(string(f[1]))
	return n
}
