package main

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// exitcode N prog args...: run prog like exec and require exit code N,
	// so scripts can tell "herdr missing" (8) from "herdr failed" (7).
	scriptCmds["exitcode"] = func(ts *testscript.TestScript, neg bool, args []string) {
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
}
