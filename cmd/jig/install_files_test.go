package main

import (
	"io/fs"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// islink PATH: PATH is a symbolic link (a dotfiles manager's, kept).
	scriptCmds["islink"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: islink PATH")
		}
		fi, err := os.Lstat(ts.MkAbs(args[0]))
		ts.Check(err)
		if is := fi.Mode()&fs.ModeSymlink != 0; is == neg {
			ts.Fatalf("%s: a link is %v", args[0], is)
		}
	}
}
