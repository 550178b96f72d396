package codex_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jig/internal/hammer"
	"jig/internal/testsrc"
	"jig/status"
)

// TestHammerParallelCalls: Codex runs the hooks of parallel calls at
// once. Many `jig codex hook` processes for one session, each a call's
// PreToolUse or PostToolUse, all exit 0 (none times out on the session's
// lock), the file ends with every call the rollout names; and once
// exec_command is switched off by a request still waiting, every one of
// the shell calls' PreToolUse hooks refuses, whichever of them takes it.
func TestHammerParallelCalls(t *testing.T) {
	jig := testsrc.Jig(t)
	rounds, calls := hammer.Scaled(2, 20), 12
	start := time.Now()
	var bad int64
	for round := range rounds {
		root := t.TempDir()
		state, rollout := filepath.Join(root, "state"), filepath.Join(root, "rollout.jsonl")
		sid := fmt.Sprintf("0199-hammer-%d", round)
		var lines []string
		lines = append(lines, `{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"`+sid+`","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","model_provider":"openai"}}`,
			`{"timestamp":"2026-12-01T10:00:00.000Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5","effort":"low"}}`)
		for i := range calls {
			lines = append(lines, fmt.Sprintf(`{"timestamp":"2026-12-01T10:00:%02d.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c%d"}}`, i, i))
		}
		lines = append(lines, `{"timestamp":"2026-12-01T10:00:59.000Z","type":"token_usage_record","payload":{"usage":{"input_tokens":900,"total_tokens":1000},"thread_token_usage":{"input_tokens":900,"cached_input_tokens":100,"output_tokens":100,"total_tokens":1000}}}`)
		os.WriteFile(rollout, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
		env := []string{"JIG_STATE_DIR=" + state, "CODEX_HOME=" + root, "TMUX=/tmp/t,1,0", "TMUX_PANE=%5", "PATH=/usr/bin:/bin"}
		hook := func(event string, i int) (string, error) {
			cmd := exec.Command(jig, "codex", "hook")
			cmd.Env = env
			cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/w","hook_event_name":%q,"tool_name":"Bash","tool_use_id":"c%d","tool_input":{"command":"true"}}`,
				sid, rollout, event, i))
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			if err != nil {
				err = fmt.Errorf("%s c%d: %v: %s", event, i, err, errb.String())
			}
			return out.String(), err
		}
		if _, err := hook("UserPromptSubmit", 0); err != nil {
			t.Fatal(err)
		}
		parallel := func(event string, check func(i int, out string)) {
			var wg sync.WaitGroup
			for i := range calls {
				wg.Go(func() {
					out, err := hook(event, i)
					if err != nil {
						atomic.AddInt64(&bad, 1)
						t.Error(err)
						return
					}
					check(i, out)
				})
			}
			wg.Wait()
		}
		parallel("PreToolUse", func(i int, out string) {
			if out != "" {
				atomic.AddInt64(&bad, 1)
				t.Errorf("c%d refused with nothing switched off: %s", i, out)
			}
		})
		parallel("PostToolUse", func(int, string) {})
		data, err := os.ReadFile(filepath.Join(state, "sessions", sid+".json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := status.Decode(data)
		if err != nil || s.State != status.Busy || len(s.Recent) != calls || s.Usage.Input != 800 || s.Thinking == nil || *s.Thinking != "low" {
			atomic.AddInt64(&bad, 1)
			t.Errorf("round %d: %v, state %s, %d calls, usage %+v", round, err, s.State, len(s.Recent), s.Usage)
		}
		// exec_command off, the request waiting: every shell call refused
		req := exec.Command(jig, "request", "tool", "exec_command", "off", "--session", sid)
		req.Env = env
		if out, err := req.CombinedOutput(); err != nil {
			t.Fatalf("jig request: %v\n%s", err, out)
		}
		parallel("PreToolUse", func(i int, out string) {
			if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "tool exec_command is switched off") {
				atomic.AddInt64(&bad, 1)
				t.Errorf("c%d not refused after exec_command off: %q", i, out)
			}
		})
	}
	hammer.Figure(t, hammer.Row{Attack: "codex hooks of parallel calls", Load: fmt.Sprintf("%d rounds × %d calls × 3 events", rounds, calls),
		Kept: fmt.Sprintf("%d of %d calls decided", int64(rounds*calls*3)-bad, rounds*calls*3), Lost: bad, Exit: "0"}, start)
}

// TestHammerMergeRace: `jig request tool exec_command off` merged into a
// request a `jig codex hook` process is taking at that moment, then a
// PreToolUse of Bash: refused, every round (before the hook kit, 2 and 11
// of 40 rounds let it through). Processes, as Codex runs them; the kit's
// conformance suite runs the same race in process, 200 rounds.
func TestHammerMergeRace(t *testing.T) {
	jig := testsrc.Jig(t)
	rounds := hammer.Scaled(40, 400)
	start := time.Now()
	root := t.TempDir()
	state, rollout := filepath.Join(root, "state"), filepath.Join(root, "rollout.jsonl")
	os.WriteFile(rollout, []byte(`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"s","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","model_provider":"openai"}}`+"\n"), 0o600)
	env := []string{"JIG_STATE_DIR=" + state, "CODEX_HOME=" + root, "PATH=/usr/bin:/bin"}
	run := func(args []string, stdin string) (string, error) {
		cmd := exec.Command(jig, args...)
		cmd.Env, cmd.Stdin = env, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	event := func(sid, ev, tool string) string {
		return fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/w","hook_event_name":%q,"tool_name":%q}`, sid, rollout, ev, tool)
	}
	var lost int64
	for round := range rounds {
		sid := fmt.Sprintf("race-%03d", round)
		if out, err := run([]string{"codex", "hook"}, event(sid, "UserPromptSubmit", "")); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if out, err := run([]string{"request", "tool", "apply_patch", "off", "--session", sid}, ""); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var wg sync.WaitGroup
		wg.Go(func() { run([]string{"codex", "hook"}, event(sid, "UserPromptSubmit", "")) }) // takes it, or the merged one
		if out, err := run([]string{"request", "tool", "exec_command", "off", "--session", sid}, ""); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		out, err := run([]string{"codex", "hook"}, event(sid, "PreToolUse", "Bash"))
		wg.Wait()
		if err != nil || !strings.Contains(out, "tool exec_command is switched off") {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d rounds let a shell call through after exec_command was switched off", lost, rounds)
	}
	hammer.Figure(t, hammer.Row{Attack: "codex: a switch merged into a request being taken", Load: fmt.Sprintf("%d rounds", rounds),
		Kept: fmt.Sprintf("%d of %d calls refused", int64(rounds)-lost, rounds), Lost: lost, Exit: "0"}, start)
}
