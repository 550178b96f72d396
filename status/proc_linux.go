package status

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// procStartTicks reads field 22 of /proc/<pid>/stat: when pid started, in
// clock ticks since boot. ok is false when it cannot be read; running is
// false when the process does not exist (or is a zombie).
func procStartTicks(pid int) (ticks int64, ok, running bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false, signalZero(pid)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false, true
	}
	fields := bytes.Fields(data[i+1:])
	// fields[0] is field 3 (state); field 22 is fields[19].
	if len(fields) < 20 {
		return 0, false, true
	}
	if fields[0][0] == 'Z' || fields[0][0] == 'X' {
		return 0, false, false
	}
	ticks, err = strconv.ParseInt(string(fields[19]), 10, 64)
	return ticks, err == nil, true
}

// processStart is when pid started, on the wall clock.
func processStart(pid int) (start time.Time, ok, running bool) {
	ticks, ok, running := procStartTicks(pid)
	bt, btOK := bootTime()
	if !ok || !btOK {
		return time.Time{}, false, running
	}
	const clockTicks = 100 // USER_HZ: 100 on every Linux architecture Go supports
	return bt.Add(time.Duration(ticks) * time.Second / clockTicks), true, true
}

// ProcessIdentity names one process for the life of the machine: this
// boot's id and the process's start in clock ticks since boot. Neither moves
// when the wall clock jumps (NTP, a VM or WSL waking up), unlike a start time
// compared with startedAt. "" when it cannot be read.
func ProcessIdentity(pid int) string {
	ticks, ok, _ := procStartTicks(pid)
	boot := bootID()
	if !ok || boot == "" {
		return ""
	}
	return boot + "/" + strconv.FormatInt(ticks, 10)
}

var bootID = sync.OnceValue(func() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(data))
})

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
