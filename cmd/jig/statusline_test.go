package main

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"

	"jig/scripts"
)

func init() {
	scriptCmds["snippet"] = snippetCmd
	scriptCmds["need"] = needCmd
}

// needCmd is `need PROGRAM...`: under CI=true (where .ci/provision installs
// them all) a missing program fails the script; elsewhere the script's own
// `[!exec:PROGRAM] skip` line that follows skips it, loudly.
func needCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: need PROGRAM...")
	}
	for _, p := range args {
		if _, err := exec.LookPath(p); err != nil && os.Getenv("CI") == "true" {
			ts.Fatalf("%s is missing: run .ci/provision", p)
		}
	}
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
