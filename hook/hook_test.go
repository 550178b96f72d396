package hook_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/hook"
	"jig/request"
	"jig/status"
	"jig/writer"
)

// testAgent is the least agent on the kit: no transcript, Bash and Write
// offered; edit is its last word.
func testAgent(edit func(s, prev *status.Status)) *hook.Agent {
	return &hook.Agent{ID: "kit-test", Kept: "kit-test-switches", Words: hook.PreToolUseDecision{},
		Answers: request.Hooked{Idle: "idle", Busy: "busy"},
		Step: func(*writer.Writer, *hook.Event) hook.Step {
			return hook.Step{Edit: edit, Offers: hook.OffersFunc(func(*request.Request, status.Switches) (request.Available, bool) {
				return request.Available{Tools: []string{"Bash", "Write"}}, true
			})}
		}}
}

func testHooks(t *testing.T) *hook.Hooks {
	return &hook.Hooks{Dir: &status.Dir{Root: filepath.Join(t.TempDir(), "state")}, Now: time.Now,
		Getenv: func(string) string { return "" }, Host: "h", PID: os.Getpid()}
}

// A request taken by an event whose write is refused (the agent said
// something no reader takes) is answered all the same, its switch kept.
func TestRequestAnsweredWhenWriteRefused(t *testing.T) {
	h := testHooks(t)
	if _, err := h.Run(testAgent(nil), &hook.Event{Kind: hook.Start, Session: "s1"}); err != nil {
		t.Fatal(err)
	}
	req := request.New(time.Now())
	req.Tools = map[string]bool{"Bash": false}
	if _, err := request.Send(h.Dir, "s1", req); err != nil {
		t.Fatal(err)
	}
	spoil := func(s, _ *status.Status) { s.Recent = []status.Call{{Tool: "Bash", Outcome: "maybe"}} }
	if _, err := h.Run(testAgent(spoil), &hook.Event{Kind: hook.Prompt, Session: "s1"}); err == nil {
		t.Fatal("the spoiled write was not refused")
	}
	s, err := h.Dir.Read("s1")
	if err != nil || !request.Answered(s.LastRequest, req.ID) || !s.LastRequest.OK || s.Switches.Tools["Bash"] {
		t.Fatalf("answer %+v, switches %v, %v", s.LastRequest, s.Switches, err)
	}
	if p, _ := request.Pending(h.Dir, "s1"); p != nil {
		t.Error("the request still waits")
	}
	out, _ := h.Run(testAgent(nil), &hook.Event{Kind: hook.PreTool, Session: "s1", Tool: "Bash"})
	if !strings.Contains(string(out), "tool Bash is switched off") {
		t.Errorf("the next call: %s", out)
	}
}

// Switches that cannot be read refuse every call, the cause said; the
// session's lock held by a writer that hangs delays no refusal past the
// bound of its write.
func TestRefusalFailsClosed(t *testing.T) {
	for name, spoil := range map[string]func(dir *status.Dir){
		"not JSON": func(dir *status.Dir) {
			dir.Ensure("kit-test-switches")
			os.WriteFile(dir.Path("kit-test-switches", "s1.json"), []byte("{"), 0o600)
		},
		"a fifo": func(dir *status.Dir) {
			dir.Ensure("kit-test-switches")
			exec.Command("mkfifo", dir.Path("kit-test-switches", "s1.json")).Run()
		},
		"a folder others write": func(dir *status.Dir) {
			dir.Ensure("kit-test-switches")
			os.Chmod(dir.Path("kit-test-switches"), 0o777)
		},
		"requests a symlink": func(dir *status.Dir) {
			os.MkdirAll(dir.Root, 0o700)
			os.Symlink("/tmp", dir.Path(status.RequestsDir))
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := testHooks(t)
			spoil(h.Dir)
			out, _ := h.Run(testAgent(nil), &hook.Event{Kind: hook.PreTool, Session: "s1", Tool: "Write"})
			if !strings.Contains(string(out), `"permissionDecision":"deny"`) || !strings.Contains(string(out), "switches cannot be read") {
				t.Errorf("answer %s", out)
			}
		})
	}
	t.Run("the lock held", func(t *testing.T) {
		h := testHooks(t)
		h.Run(testAgent(nil), &hook.Event{Kind: hook.Start, Session: "s1"})
		(&request.Kept{Dir: h.Dir, Folder: "kit-test-switches"}).Save("s1", status.Switches{Tools: map[string]bool{"Bash": false}})
		unlock, err := h.Dir.Lock("s1")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := h.Run(testAgent(nil), &hook.Event{Kind: hook.PreTool, Session: "s1", Tool: "Bash"})
		if !strings.Contains(string(out), "tool Bash is switched off") {
			t.Errorf("answer %s", out)
		}
		// the write given up on goes on in this process: once the lock is
		// free, it records the event
		unlock()
		for s, _ := h.Dir.Read("s1"); s == nil || s.State != status.Busy; s, _ = h.Dir.Read("s1") {
			time.Sleep(10 * time.Millisecond)
		}
	})
}
