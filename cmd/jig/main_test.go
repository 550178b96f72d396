package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"jig/hot"
	"jig/hot/fast"
)

// scriptCmds are the extra commands testscript files may use. Test files add
// theirs in init, one file per area, so no two areas edit one map literal.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// scriptConds are the extra [conditions] testscript files may use, added the
// same way.
var scriptConds = map[string]func() bool{}

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"jig": func() {
			inJig := func(args []string) error { os.Exit(run(args, testEnv())); return nil }
			switch os.Getenv(asFast) {
			case "fast": // TestScriptFast
				os.Exit(fast.Main(os.Args, testEnv().Env, inJig))
			case "line": // TestScriptLine
				e := testEnv().Env
				os.Exit(hot.Main(os.Args, e, e.AnswerLine, inJig))
			}
			os.Exit(run(os.Args, testEnv()))
		},
	})
}

// asFast, set by TestScriptFast and TestScriptLine, makes a script's jig
// jig-fast ("fast") or jig-line ("line"), which hands what it does not
// answer to jig in the same process, as its exec does.
const asFast = "JIG_TEST_AS_FAST"

// testEnv is the real environment, with the clock fixed by JIG_TEST_NOW
// (RFC 3339) when a script sets it.
func testEnv() *env {
	e := newEnv()
	if v := os.Getenv("JIG_TEST_NOW"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			panic("JIG_TEST_NOW: " + err.Error())
		}
		e.Now = func() time.Time { return t }
	}
	return e
}

// TestScript runs every testdata/*.txt as a user's shell session. Each
// script gets its own state dir under $WORK.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams("testdata", nil))
}

// TestScriptFast runs the scripts that run a line jig-fast answers (fast.Main)
// with jig-fast as their jig: every such line must answer exactly as jig's.
func TestScriptFast(t *testing.T) { scriptsAs(t, "fast", fastLine) }

// TestScriptLine does the same for jig-line (hot.AnswerLine).
func TestScriptLine(t *testing.T) { scriptsAs(t, "line", statusLine) }

// fastLine finds a script line jig-fast answers itself, statusLine one
// jig-line does.
var (
	fastLine   = regexp.MustCompile(`(?m)\bjig (session for-terminal|[a-z]+ (hook|statusline))\b`)
	statusLine = regexp.MustCompile(`(?m)\bjig session for-terminal\b`)
)

// scriptsAs runs the scripts with a line that matches with program (asFast)
// as their jig.
func scriptsAs(t *testing.T, program string, line *regexp.Regexp) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if line.Match(data) {
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	testscript.Run(t, scriptParams(dir, func(env *testscript.Env) { env.Setenv(asFast, program) }))
}

func scriptParams(dir string, setup func(*testscript.Env)) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
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
			if setup != nil {
				setup(env)
			}
			return nil
		},
	}
}
