package main

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// herdr-standin PATH puts the stand-in for Herdr 1's CLI at $WORK/PATH: it
// parses the pane commands jig sends exactly as Herdr 0.8.0 does
// (herdr/herdr1/testdata/herdr says how), and records each call.
func init() {
	scriptCmds["herdr-standin"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: herdr-standin PATH")
		}
		data, err := os.ReadFile("../../herdr/herdr1/testdata/herdr")
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o755))
	}
}
