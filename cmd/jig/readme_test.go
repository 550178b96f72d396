package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// readmeExamples are the `jig …` lines of README.md's sh blocks, without
// their trailing comments, in order.
func readmeExamples(t *testing.T) (examples []string, install string) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	comment := regexp.MustCompile(`\s{2,}#.*$`)
	inSh := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "```sh":
			inSh = true
		case strings.HasPrefix(line, "```"):
			inSh = false
		case inSh && strings.HasPrefix(line, "go install "):
			install = line
		case inSh && strings.HasPrefix(line, "jig "):
			examples = append(examples, comment.ReplaceAllString(line, ""))
		}
	}
	return examples, install
}

// Every `jig …` example in the README runs as written, against a state dir
// and a Pi folder the script prepares: exit 0 and nothing on stderr. An
// example that waits (--wait, watch) runs in the background and is answered
// or ended the way a session would.
func TestREADMEExamples(t *testing.T) {
	examples, install := readmeExamples(t)
	if len(examples) < 10 {
		t.Fatalf("found %d examples in README.md; the extraction is broken", len(examples))
	}
	// The build the README tells people to use keeps "did you mean".
	if strings.Contains(install, "urfave_cli_no_suggest") || !strings.Contains(install, "./cmd/jig") {
		t.Errorf("README's install line %q: it must build ./cmd/jig with suggestions on", install)
	}
	var script strings.Builder
	script.WriteString(readmeSetup)
	var waits []string
	onTransitions := map[string]bool{} // --on: no line until a transition asked for, the end's own
	for i, ex := range examples {
		quoted := "'" + strings.ReplaceAll(ex, "'", "''") + "'"
		switch {
		case strings.Contains(ex, " --wait"):
			script.WriteString("exec sh -c " + quoted + " &wait" + "&\n")
			script.WriteString("waitfile $JIG_STATE_DIR/requests/0190a7c2-live.json\n")
			script.WriteString("exec sh hook.sh 0190a7c2-live $PID true 'tool bash off'\n")
			script.WriteString("wait wait\n! stderr .\nstdout .\n")
		case strings.Contains(ex, "session watch"):
			name := "watch" + string(rune('a'+i))
			script.WriteString("exec sh -c " + quoted + " &" + name + "&\n")
			waits = append(waits, name)
			if strings.Contains(ex, " --on ") {
				onTransitions[name] = true
			}
		default:
			script.WriteString("exec sh -c " + quoted + "\n! stderr .\n")
		}
	}
	if len(waits) > 0 {
		script.WriteString("exec sleep 0.5\nexec jig session write --session 0190a7c2-live --end\n")
		for _, w := range waits {
			script.WriteString("wait " + w + "\n! stderr .\n")
			if !onTransitions[w] {
				script.WriteString("stdout '^busy$'\n")
			}
		}
	}
	script.WriteString(readmeFiles)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "readme_examples.txt"), []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		Cmds:                scriptCmds,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("JIG_STATE_DIR", env.WorkDir+"/state")
			env.Setenv("HOME", env.WorkDir+"/home")
			for _, v := range []string{"HC_TERMINAL_ID", "HERDR_PANE_ID", "TMUX", "TMUX_PANE", "KITTY_WINDOW_ID", "WEZTERM_PANE", "PI_CODING_AGENT_DIR", "JIG_FORCE_TTY", "NO_COLOR", "XDG_CONFIG_HOME"} {
				env.Setenv(v, "")
			}
			return nil
		},
	})
}

// readmeSetup is a live session in terminals t7 and %3 (this shell's pane)
// and the Pi transcript the README's pi examples name.
const readmeSetup = `livepid PID
mkdir home
env TMUX=/tmp/tmux-0/default,1,0 TMUX_PANE=%3 HC_TERMINAL_ID=t7
stdin live.json
exec jig session write --session 0190a7c2-live --pid $PID
env HC_TERMINAL_ID= TMUX=
mkdir home/.pi/agent/sessions/--home-me-shop--
cp 0190a.jsonl home/.pi/agent/sessions/--home-me-shop--/2026-11-29T10-00-00-000Z_0190a.jsonl
`

const readmeFiles = `
-- live.json --
{"state": "busy", "thinking": "medium", "startedAt": "2026-11-29T10:00:00Z",
 "model": {"provider": "anthropic", "id": "claude-sonnet-4-5-20250929", "name": "Claude Sonnet 4.5"},
 "context": {"tokens": 84000, "window": 200000, "percent": 42},
 "usage": {"input": 1000, "output": 200, "cacheRead": 0, "cacheWrite": 0, "cost": 0.31}}
-- 0190a.jsonl --
{"type":"session","version":3,"id":"0190a7c2-5f3e-7b21-9d44-000000000001","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/home/me/shop"}
{"type":"model_change","id":"3f2a91bb","parentId":null,"timestamp":"2026-11-29T10:00:00.100Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}
{"type":"message","id":"3f2a91bc","parentId":"3f2a91bb","timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"Fix the refund rounding."}],"timestamp":1795946401000}}
{"type":"message","id":"3f2a91bd","parentId":"3f2a91bc","timestamp":"2026-11-29T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":900,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":920,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.003}},"stopReason":"stop","timestamp":1795946402000}}
-- hook.sh --
# The session side of a request: take it and answer it through the status writer.
session=$1 pid=$2 ok=$3 message=$4
req=$(jig request take --session "$session") || exit 0
id=$(printf '%s\n' "$req" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
covers=$(printf '%s\n' "$req" | sed -n 's/.*"covers":\(\[[^]]*\]\).*/\1/p')
printf '{"lastRequest": {"id": "%s", "ok": %s, "message": "%s", "at": "2026-11-29T19:00:00Z", "covers": %s}}\n' \
	"$id" "$ok" "$message" "${covers:-[]}" | jig session write --session "$session" --pid "$pid"
`
