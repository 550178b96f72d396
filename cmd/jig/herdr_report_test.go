package main

import (
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// jigbin VAR sets VAR to the absolute path of the jig on the script's
// PATH: the jig a writer starts for its Herdr reports (JIG_BIN).
func init() {
	scriptCmds["jigbin"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: jigbin VAR")
		}
		for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
			if p := filepath.Join(d, "jig"); d != "" && isExecutable(p) {
				ts.Setenv(args[0], p)
				return
			}
		}
		ts.Fatalf("jigbin: no jig on PATH")
	}
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
