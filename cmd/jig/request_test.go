package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"jig/status"
)

// Script commands for the request_*.txt scripts.
func init() {
	// livepid VAR: VAR is the pid of the test binary, which runs for the
	// whole script: a live session's pid.
	scriptCmds["livepid"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: livepid VAR")
		}
		ts.Setenv(args[0], strconv.Itoa(os.Getpid()))
	}
	// pidstart PID VAR: VAR is what jig records as pidStart for PID.
	scriptCmds["pidstart"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: pidstart PID VAR")
		}
		pid, err := strconv.Atoi(args[0])
		ts.Check(err)
		ts.Setenv(args[1], status.ProcessIdentity(pid))
	}
	// deadpid VAR: VAR is the pid of a process that has exited.
	scriptCmds["deadpid"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: deadpid VAR")
		}
		cmd := exec.Command("true")
		ts.Check(cmd.Run())
		ts.Setenv(args[0], strconv.Itoa(cmd.Process.Pid))
	}
	// waitfile PATH [REGEXP]: wait (up to 10 s) until PATH exists and, with
	// REGEXP, its content matches: a background command got that far.
	scriptCmds["waitfile"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: waitfile PATH [REGEXP]")
		}
		var re *regexp.Regexp
		if len(args) == 2 {
			re = regexp.MustCompile(args[1])
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			data, err := os.ReadFile(ts.MkAbs(args[0]))
			if err == nil && (re == nil || re.Match(data)) {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("waitfile %s: not there after 10s (last: %q, %v)", args[0], data, err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// perm OCTAL PATH: PATH's permission bits are OCTAL.
	scriptCmds["perm"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: perm OCTAL PATH")
		}
		fi, err := os.Lstat(ts.MkAbs(args[1]))
		ts.Check(err)
		got := fmt.Sprintf("%o", fi.Mode().Perm())
		if (got == strings.TrimLeft(args[0], "0")) == neg {
			ts.Fatalf("%s has mode %s", args[1], got)
		}
	}
	// mkfifo PATH: a named pipe where a file should be.
	scriptCmds["mkfifo"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: mkfifo PATH")
		}
		ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
	}
	// [root]: only root can give a file to another user.
	scriptConds["root"] = func() bool { return os.Geteuid() == 0 }
	// chownother PATH: PATH belongs to another user (nobody).
	scriptCmds["chownother"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: chownother PATH")
		}
		ts.Check(os.Lchown(ts.MkAbs(args[0]), 65534, 65534))
	}
	// bigrequest PATH ID: a well-formed request over 64 KB.
	scriptCmds["bigrequest"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: bigrequest PATH ID")
		}
		data := fmt.Sprintf(`{"schema":1,"id":%q,"pad":%q}`, args[1], strings.Repeat("x", 70<<10))
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o600))
	}
}
