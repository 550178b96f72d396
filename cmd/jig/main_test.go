package main

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the extra commands testscript files may use. Test files add
// theirs in init, one file per area, so no two areas edit one map literal.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// scriptConds are the extra [conditions] testscript files may use, added the
// same way.
var scriptConds = map[string]func() bool{}

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"jig": func() { os.Exit(run(os.Args, testEnv())) },
	})
}

// testEnv is the real environment, with the clock fixed by JIG_TEST_NOW
// (RFC 3339) when a script sets it.
func testEnv() *env {
	e := newEnv()
	if v := os.Getenv("JIG_TEST_NOW"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			panic("JIG_TEST_NOW: " + err.Error())
		}
		e.now = func() time.Time { return t }
	}
	return e
}

// TestScript runs every testdata/*.txt as a user's shell session. Each
// script gets its own state dir under $WORK.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		Cmds:                scriptCmds,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Condition: func(cond string) (bool, error) {
			if f, ok := scriptConds[cond]; ok {
				return f(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("JIG_STATE_DIR", env.WorkDir+"/state")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/xdg-state")
			for _, v := range []string{"HC_TERMINAL_ID", "HERDR_PANE_ID", "TMUX", "TMUX_PANE", "KITTY_WINDOW_ID", "WEZTERM_PANE", "PI_CODING_AGENT_DIR", "JIG_FORCE_TTY", "NO_COLOR"} {
				env.Setenv(v, "")
			}
			return nil
		},
	})
}
