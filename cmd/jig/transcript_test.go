package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// mtime FILE TIME: set the file's modification time (RFC 3339).
	scriptCmds["mtime"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: mtime FILE TIME")
		}
		t, err := time.Parse(time.RFC3339, args[1])
		ts.Check(err)
		ts.Check(os.Chtimes(ts.MkAbs(args[0]), t, t))
	}
	// mode FILE PERM: the file's permission bits are PERM (octal).
	scriptCmds["mode"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: mode FILE PERM")
		}
		fi, err := os.Lstat(ts.MkAbs(args[0]))
		ts.Check(err)
		want, err := strconv.ParseUint(args[1], 8, 32)
		ts.Check(err)
		if got := uint64(fi.Mode().Perm()); (got == want) == neg {
			ts.Fatalf("%s has mode %o, want %s%o", args[0], got, map[bool]string{true: "not ", false: ""}[neg], want)
		}
	}
	// appendfile SRC DST: append SRC's bytes to DST, as Pi appends entries.
	scriptCmds["appendfile"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: appendfile SRC DST")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
		ts.Check(err)
		defer f.Close()
		_, err = fmt.Fprintf(f, "%s", data)
		ts.Check(err)
	}
}
