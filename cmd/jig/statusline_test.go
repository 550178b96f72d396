package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"

	"jig/scripts"
)

func init() {
	scriptCmds["exits"] = exitsCmd
	scriptCmds["snippet"] = snippetCmd
}

// snippetCmd is `snippet PATH`: it copies the shipped scripts/PATH into the
// script's work dir at the same PATH, so scripts source the real file.
func snippetCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: snippet PATH")
	}
	data, err := scripts.FS.ReadFile(args[0])
	ts.Check(err)
	dst := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
	ts.Check(os.WriteFile(dst, data, 0o644))
}

// exitsCmd is `exits CODE program args...`: it runs the program like exec
// and fails unless it exits with CODE, so scripts can tell "no session" (5)
// from "timed out" (6). stdout and stderr are kept for the next assertions.
func exitsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
