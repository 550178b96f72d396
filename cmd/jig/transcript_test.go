package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	// grepdir TEXT DIR: some file under DIR holds TEXT (with !: none does).
	scriptCmds["grepdir"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: grepdir TEXT DIR")
		}
		var found []string
		ts.Check(filepath.WalkDir(ts.MkAbs(args[1]), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(path)
			if err == nil && bytes.Contains(data, []byte(args[0])) {
				found = append(found, path)
			}
			return err
		}))
		if (len(found) > 0) == neg {
			ts.Fatalf("%q under %s: in %v", args[0], args[1], found)
		}
	}
	// repeatfile FILE BEFORE TEXT N AFTER: FILE holds BEFORE, TEXT N times, AFTER.
	scriptCmds["repeatfile"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 5 {
			ts.Fatalf("usage: repeatfile FILE BEFORE TEXT N AFTER")
		}
		n, err := strconv.Atoi(args[3])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(args[1]+strings.Repeat(args[2], n)+args[4]), 0o600))
	}
}
