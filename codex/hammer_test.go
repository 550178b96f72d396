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
