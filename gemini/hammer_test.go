package gemini_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/internal/testsrc"
	"jig/request"
	"jig/status"
)

// TestParallelBeforeToolProcesses: thirty `jig gemini hook` processes of
// a BeforeTool at once, Gemini's way (its parallel calls each run the
// hook), with run_shell_command switched off by a request still waiting:
// every one is refused in Gemini's words, none fails, and the request is
// taken once; thirty of write_file beside them are all allowed.
func TestParallelBeforeToolProcesses(t *testing.T) {
	jig := testsrc.Jig(t)
	root := t.TempDir()
	state := filepath.Join(root, "state")
	env := []string{"HOME=" + root, "JIG_STATE_DIR=" + state, "TMUX=/tmp/t,1,0", "TMUX_PANE=%5", "PATH=/usr/bin:/bin"}
	run := func(stdin []byte) (string, error) {
		cmd := exec.Command(jig, "gemini", "hook")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(stdin)
		out, err := cmd.Output()
		return string(out), err
	}
	event := func(name, tool string) []byte {
		data, _ := json.Marshal(map[string]any{"session_id": "g1", "cwd": "/w", "hook_event_name": name, "tool_name": tool,
			"tool_input": map[string]string{"command": "rm -rf /tmp/HAMMER-SECRET"}})
		return data
	}
	if _, err := run(event("BeforeAgent", "")); err != nil {
		t.Fatal(err)
	}
	req := request.New(time.Now())
	req.Tools = map[string]bool{"run_shell_command": false}
	if _, err := request.Send(&status.Dir{Root: state}, "g1", req); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]string, 60)
	errs := make([]error, 60)
	for i := range 60 {
		tool := "run_shell_command"
		if i%2 == 1 {
			tool = "write_file"
		}
		wg.Go(func() { outs[i], errs[i] = run(event("BeforeTool", tool)) })
	}
	wg.Wait()
	for i, out := range outs {
		switch {
		case errs[i] != nil:
			t.Errorf("hook %d: %v", i, errs[i])
		case i%2 == 0 && !strings.Contains(out, `"decision":"deny"`) || i%2 == 0 && !strings.Contains(out, "tool run_shell_command is switched off"):
			t.Errorf("hook %d of run_shell_command: %q, want refused", i, out)
		case i%2 == 1 && out != "":
			t.Errorf("hook %d of write_file: %q, want allowed", i, out)
		}
	}
	s, err := (&status.Dir{Root: state}).Read("g1")
	if err != nil {
		t.Fatal(err)
	}
	if s.LastRequest == nil || s.LastRequest.ID != req.ID || s.Switches.Tools["run_shell_command"] {
		t.Errorf("answer %+v, switches %v", s.LastRequest, s.Switches)
	}
	if data, _ := json.Marshal(s); strings.Contains(string(data), "HAMMER-SECRET") {
		t.Error("the status holds an argument value")
	}
}
