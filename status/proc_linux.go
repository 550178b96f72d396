package status

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// processStart reads when pid started from /proc: field 22 of
// /proc/<pid>/stat counts clock ticks since boot. ok is false when the time cannot be read; running is false
// when the process does not exist (or is a zombie).
func processStart(pid int) (start time.Time, ok, running bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return time.Time{}, false, signalZero(pid)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return time.Time{}, false, true
	}
	fields := bytes.Fields(data[i+1:])
	// fields[0] is field 3 (state); field 22 is fields[19].
	if len(fields) < 20 {
		return time.Time{}, false, true
	}
	if fields[0][0] == 'Z' || fields[0][0] == 'X' {
		return time.Time{}, false, false
	}
	ticks, err := strconv.ParseInt(string(fields[19]), 10, 64)
	bt, btOK := bootTime()
	if err != nil || !btOK {
		return time.Time{}, false, true
	}
	const clockTicks = 100 // USER_HZ: 100 on every Linux architecture Go supports
	return bt.Add(time.Duration(ticks) * time.Second / clockTicks), true, true
}

// bootTime is when the machine booted, from the boot clock (which, unlike
// /proc/stat's btime, costs no file read and counts in nanoseconds).
func bootTime() (time.Time, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return time.Time{}, false
	}
	return time.Now().Add(-time.Duration(ts.Nano())), true
}

func signalZero(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
