package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// grow FILE TEMPLATE N: FILE is TEMPLATE with its '@' replaced by N
	// bytes 'x', for inputs too large to keep in a script.
	scriptCmds["grow"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: grow FILE TEMPLATE N")
		}
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		data := strings.Replace(args[1], "@", strings.Repeat("x", n), 1)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o600))
	}
	scriptCmds["exitcode"] = exitcodeCmd
	scriptCmds["chown"] = chownCmd
	scriptCmds["sethostname"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: sethostname VAR")
		}
		h, err := os.Hostname()
		ts.Check(err)
		ts.Setenv(args[0], h)
	}
}

// chownCmd is `chown UID path`: give a file to another user, to show jig
// refuses a state dir it does not own. Only root can; anyone else gets the
// other unsafe case, a folder others may write, which jig refuses the same way.
func chownCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: chown UID path")
	}
	uid, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("chown: %v", err)
	}
	if os.Getuid() != 0 {
		ts.Logf("not root: making %s writable by others instead", args[1])
		ts.Check(os.Chmod(ts.MkAbs(args[1]), 0o777))
		return
	}
	ts.Check(os.Lchown(ts.MkAbs(args[1]), uid, -1))
}

// exitcodeCmd is `exitcode N prog args...`: exec prog and require exit code
// N, keeping its stdout and stderr for the next assertions. Exit codes are
// part of jig's contract (status lines branch on 0 / 1 / 3), so scripts say
// which one, not just "failed".
func exitcodeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
