package claude

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"jig/settingsjson"
)

// ThenTimeout bounds the user's own statusLine command under --then: Claude
// waits for the line, and a command that hangs must not hold it.
const ThenTimeout = 5 * time.Second

// Then runs the user's own statusLine command (a shell line, as Claude runs
// it) with Claude's JSON on its stdin, its stderr to stderr, and returns
// what it printed and its exit code. Past ThenTimeout it is stopped, with
// everything it started, and what it printed is dropped.
func Then(command string, input []byte, stderr io.Writer) (out []byte, code int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), ThenTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin, cmd.Stderr = bytes.NewReader(input), stderr
	// its own process group, so the timeout stops what it started too
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.WaitDelay = 500 * time.Millisecond // a child left holding its output
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return nil, 0, fmt.Errorf("--then: no line within %s", ThenTimeout)
	case errors.As(err, &exit):
		return stdout.Bytes(), exit.ExitCode(), nil
	case err != nil:
		return nil, 0, fmt.Errorf("--then: %v", err)
	}
	return stdout.Bytes(), 0, nil
}

// thenFlag is how jig's statusLine command names the command it wraps;
// refreshedFlag before it says jig added the statusLine's refreshInterval
// (the user's had none), which --uninstall removes again.
const (
	thenFlag      = " --then "
	refreshedFlag = " --refreshed"
)

// wrapped is jig's statusLine command wrapping the user's own: bin's
// `claude statusline [--refreshed] --then '<command>'`.
func wrapped(bin, command string, refreshed bool) string {
	cmd := Command(bin, "statusline")
	if refreshed {
		cmd += refreshedFlag
	}
	return cmd + thenFlag + shellQuote(command)
}

// unwrap is the user's command a statusLine command of jig's wraps,
// whether jig added its refreshInterval, and whether it wraps one (as
// wrapped writes it).
func unwrap(cmd string) (theirs string, refreshed, ok bool) {
	if !isJig(cmd, "statusline") {
		return "", false, false
	}
	for _, mark := range []string{refreshedFlag + thenFlag, thenFlag} {
		i := strings.Index(cmd, " claude statusline"+mark)
		if i < 0 {
			continue
		}
		q := cmd[i+len(" claude statusline"+mark):]
		if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
			return "", false, false
		}
		inner := strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'")
		if shellQuote(inner) != q {
			return "", false, false // not what jig writes
		}
		return inner, mark != thenFlag, true
	}
	return "", false, false
}

// shellQuote is s as one /bin/sh word.
func shellQuote(s string) string { return settingsjson.ShellQuote(s) }
