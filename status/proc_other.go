//go:build !linux

package status

import (
	"errors"
	"syscall"
	"time"
)

// processStart knows only whether pid runs: outside Linux jig does not read
// process start times, so a reused pid looks alive until gc.
func processStart(pid int) (start time.Time, ok, running bool) {
	err := syscall.Kill(pid, 0)
	return time.Time{}, false, err == nil || errors.Is(err, syscall.EPERM)
}

// ProcessIdentity is "" outside Linux: liveness falls back to the start time.
func ProcessIdentity(pid int) string { return "" }

// bootTime is unknown outside Linux: gc leaves every unreadable file.
func bootTime() (time.Time, bool) { return time.Time{}, false }
