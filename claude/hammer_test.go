package claude_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"jig/claude"
	"jig/request"
	"jig/status"
)

// holdLockEnv makes the test binary a process that holds a session's lock
// (state dir and session in the variable) until it is killed.
const holdLockEnv = "JIG_TEST_HOLD_LOCK"

// holdLock is that process: it takes the lock, says so, and sleeps.
func holdLock(spec string) {
	root, session, _ := strings.Cut(spec, "\n")
	if _, err := (&status.Dir{Root: root}).Lock(session); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Hour)
}

// hookRun is one `jig claude hook` process's end.
type hookRun struct {
	out  []byte
	code int
	took time.Duration
}

// hooks runs n `jig claude hook` processes at once, each given in(i).
func hooks(t *testing.T, jig string, env []string, n int, in func(i int) []byte) []hookRun {
	t.Helper()
	runs := make([]hookRun, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(jig, "claude", "hook")
			cmd.Env, cmd.Stdin = env, bytes.NewReader(in(i))
			var out bytes.Buffer
			cmd.Stdout = &out
			<-start
			began := time.Now()
			err := cmd.Run()
			runs[i] = hookRun{out: out.Bytes(), took: time.Since(began), code: cmd.ProcessState.ExitCode()}
			if err != nil && runs[i].code < 0 {
				t.Errorf("hook %d: %v", i, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	return runs
}

// hookBound is what each parallel hook must finish within: half of Claude's
// hook timeout (jig install's 10 s), after which Claude gives up on a hook
// and runs the call. Generous for a loaded machine; not a speed figure.
const hookBound = claude.HookTimeout * time.Second / 2

// TestParallelRefusals: Claude fires the PreToolUse hooks of parallel calls
// at once. Thirty of them for a tool switched off are all refused, none
// fails, none waits out the others; with the session's lock held by a
// stopped process they are refused all the same, and a tool being switched
// off by a request that cannot be taken yet is refused too, also before
// the transcript names any tool (0 of 30 were, before the hook kit).
func TestParallelRefusals(t *testing.T) {
	jig := buildJig(t)
	root := t.TempDir()
	home, state := filepath.Join(root, "home"), filepath.Join(root, "state")
	tr := filepath.Join(home, ".claude", "projects", "-w", "s1.jsonl")
	os.MkdirAll(filepath.Dir(tr), 0o700)
	// Claude's first request offered Bash, Read and Write; the calls below
	// are in no entry yet, as when the hooks run before Claude writes them.
	os.WriteFile(tr, []byte(`{"type":"api-request-shape","sessionId":"s1","timestamp":"2026-12-01T10:00:00Z","shape":{"tools":[{"name":"Bash"},{"name":"Read"},{"name":"Write"}]}}`+"\n"), 0o600)
	env := []string{"HOME=" + home, "JIG_STATE_DIR=" + state, "CLAUDE_PID=" + fmt.Sprint(os.Getpid()), "PATH=/usr/bin:/bin"}
	event := func(ev, tool, id string) []byte {
		data, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": tr, "cwd": "/w", "hook_event_name": ev,
			"tool_name": tool, "tool_use_id": id, "tool_input": map[string]string{"command": "rm -rf /tmp/x"}})
		return data
	}
	dir := &status.Dir{Root: state}
	if r := hooks(t, jig, env, 1, func(int) []byte { return event("SessionStart", "", "") }); r[0].code != 0 {
		t.Fatalf("SessionStart: exit %d", r[0].code)
	}
	req := request.New(time.Now())
	req.Tools = map[string]bool{"Bash": false}
	if _, err := request.Send(dir, "s1", req); err != nil {
		t.Fatal(err)
	}
	if r := hooks(t, jig, env, 1, func(int) []byte { return event("UserPromptSubmit", "", "") }); r[0].code != 0 {
		t.Fatalf("UserPromptSubmit: exit %d", r[0].code)
	}
	if s, err := dir.Read("s1"); err != nil || s.Switches.Tools["Bash"] != false || s.LastRequest == nil || !s.LastRequest.OK {
		t.Fatalf("Bash not switched off: %+v, %v", s, err)
	}
	refusedAll := func(what string, runs []hookRun, tool string) {
		t.Helper()
		for i, r := range runs {
			var got struct {
				HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
			}
			json.Unmarshal(r.out, &got)
			switch {
			case r.code != 0:
				t.Errorf("%s: hook %d exited %d", what, i, r.code)
			case got.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(got.HookSpecificOutput.PermissionDecisionReason, "tool "+tool+" is switched off"):
				t.Errorf("%s: hook %d did not refuse: %s", what, i, r.out)
			case r.took > hookBound:
				t.Errorf("%s: hook %d took %s, beyond %s", what, i, r.took, hookBound)
			}
		}
	}
	bash := func(i int) []byte { return event("PreToolUse", "Bash", fmt.Sprintf("toolu_p%02d", i)) }
	refusedAll("30 at once", hooks(t, jig, env, 30, bash), "Bash")
	// Thirty allowed calls at once: each waits for its entry (it never
	// comes) before the lock, not under it, so none waits out the lock.
	write := func(i int) []byte { return event("PreToolUse", "Write", fmt.Sprintf("toolu_a%02d", i)) }
	for i, r := range hooks(t, jig, env, 30, write) {
		if r.code != 0 || len(r.out) != 0 || r.took > hookBound {
			t.Errorf("allowed call %d: exit %d after %s, said %s", i, r.code, r.took, r.out)
		}
	}

	// A session whose transcript names no tools yet (before Claude's first
	// model request) cannot take a request: Bash switched off by one still
	// waiting is refused all the same, with the transcript named or not.
	early := filepath.Join(home, ".claude", "projects", "-w", "s2.jsonl")
	os.WriteFile(early, []byte(`{"type":"user","sessionId":"s2","timestamp":"2026-12-01T10:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), 0o600)
	req = request.New(time.Now())
	req.Tools = map[string]bool{"Bash": false}
	if _, err := request.Send(dir, "s2", req); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{early, ""} {
		refusedAll("a request waiting, no tools known, transcript "+path, hooks(t, jig, env, 30, func(i int) []byte {
			data, _ := json.Marshal(map[string]any{"session_id": "s2", "transcript_path": path, "cwd": "/w", "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_use_id": fmt.Sprintf("toolu_e%02d", i), "tool_input": map[string]string{"command": "rm -rf /tmp/x"}})
			return data
		}), "Bash")
	}
	if p, _ := request.Pending(dir, "s2"); p == nil || p.ID != req.ID {
		t.Errorf("the request no hook could take: %+v, want it still waiting", p)
	}

	// The session's lock is held by a process that hangs (stopped).
	holder := exec.Command(os.Args[0])
	holder.Env = append(os.Environ(), holdLockEnv+"="+state+"\ns1")
	pipe, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	if line, _ := bufio.NewReader(pipe).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the lock holder said %q", line)
	}
	holder.Process.Signal(syscall.SIGSTOP)
	refusedAll("the lock held by a stopped process", hooks(t, jig, env, 30, bash), "Bash")

	// Read is being switched off by a request no hook can take now: its
	// calls are refused from the request.
	req = request.New(time.Now())
	req.Tools = map[string]bool{"Read": false}
	if _, err := request.Send(dir, "s1", req); err != nil {
		t.Fatal(err)
	}
	read := func(i int) []byte { return event("PreToolUse", "Read", fmt.Sprintf("toolu_r%02d", i)) }
	refusedAll("a request waiting, the lock held", hooks(t, jig, env, 3, read), "Read")

	// The switches cannot be read (a folder where the kept switches go):
	// refused (fail closed), the cause said.
	holder.Process.Kill()
	holder.Wait()
	kept := dir.Path(claude.SwitchesDir, "s1.json")
	os.Remove(kept)
	os.Mkdir(kept, 0o700)
	for _, r := range hooks(t, jig, env, 1, func(int) []byte { return event("PreToolUse", "Write", "toolu_w") }) {
		if r.code != 0 || !bytes.Contains(r.out, []byte(`"permissionDecision":"deny"`)) || !bytes.Contains(r.out, []byte("switches cannot be read")) {
			t.Errorf("unreadable switches: exit %d, %s", r.code, r.out)
		}
	}
}
