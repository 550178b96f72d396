package codex

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/request"
	"jig/status"
)

const session = "01a23111-2e5e-71a0-8cc5-ee2f0e428d55" // the fixture's

// hookWorld is a state dir, a CODEX_HOME and a rollout, the fixture's.
type hookWorld struct {
	t       *testing.T
	h       *Hooks
	rollout string
	env     map[string]string
}

func newHookWorld(t *testing.T) *hookWorld {
	root := t.TempDir()
	data, err := os.ReadFile("rollout/testdata/exec-resume.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w := &hookWorld{t: t, rollout: filepath.Join(root, "rollout.jsonl"),
		env: map[string]string{"CODEX_HOME": filepath.Join(root, "codex"), "TMUX": "/tmp/t,1,0", "TMUX_PANE": "%4", "HOME": root}}
	if err := os.WriteFile(w.rollout, data, 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 10, 8, 0, 0, time.UTC)
	w.h = &Hooks{Dir: &status.Dir{Root: filepath.Join(root, "state")}, Now: func() time.Time { return now },
		Getenv: func(k string) string { return w.env[k] }, Host: "box", PID: os.Getpid()}
	return w
}

// hook runs one event; extra fields are laid over the input.
func (w *hookWorld) hook(event string, extra ...string) []byte {
	w.t.Helper()
	fields := map[string]any{"session_id": session, "transcript_path": w.rollout, "cwd": "/work/shop", "hook_event_name": event, "model": "gpt-5.5"}
	for i := 0; i+1 < len(extra); i += 2 {
		var v any = extra[i+1]
		if json.Valid([]byte(extra[i+1])) && strings.HasPrefix(extra[i+1], "{") {
			v = json.RawMessage(extra[i+1])
		}
		fields[extra[i]] = v
	}
	data, _ := json.Marshal(fields)
	in, err := ParseInput(data)
	if err != nil {
		w.t.Fatal(err)
	}
	out, err := w.h.Hook(in)
	if err != nil {
		w.t.Fatalf("%s: %v", event, err)
	}
	return out
}

func (w *hookWorld) status() *status.Status {
	w.t.Helper()
	data, err := os.ReadFile(w.h.Dir.SessionPath(session))
	if err != nil {
		w.t.Fatal(err)
	}
	s, err := status.Decode(data)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

func (w *hookWorld) send(req *request.Request) {
	w.t.Helper()
	if _, err := request.Send(w.h.Dir, session, req); err != nil {
		w.t.Fatal(err)
	}
}

// reason is a PreToolUse answer's reason, "" when it allows.
func reason(t *testing.T, out []byte) string {
	t.Helper()
	if len(out) == 0 {
		return ""
	}
	var got struct {
		HookSpecificOutput struct{ HookEventName, PermissionDecision, PermissionDecisionReason string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if h := got.HookSpecificOutput; h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" {
		t.Fatalf("answer %+v", h)
	}
	return got.HookSpecificOutput.PermissionDecisionReason
}

func TestHookWritesTheSession(t *testing.T) {
	w := newHookWorld(t)
	w.hook("SessionStart", "source", "startup")
	s := w.status()
	if s.Agent != status.AgentCodex || s.State != status.Idle || s.PID != os.Getpid() || s.Host != "box" || s.Terminal == nil || *s.Terminal != "%4" ||
		s.AgentDir != w.env["CODEX_HOME"] || s.SessionFile == nil || *s.SessionFile != w.rollout || s.CWD != "/work/shop" {
		t.Errorf("after SessionStart: %+v", s)
	}
	// what the rollout says: model, effort, Codex's totals, its window
	if s.Model == nil || s.Model.ID != "gpt-5.5" || s.Model.Provider != "mock" || s.Thinking == nil || *s.Thinking != "high" {
		t.Errorf("model %+v, thinking %v", s.Model, s.Thinking)
	}
	if want := (status.Usage{Input: 7100, Output: 300, CacheRead: 2900}); s.Usage != want {
		t.Errorf("usage %+v, want %+v", s.Usage, want)
	}
	if c := s.Context; c.Tokens == nil || *c.Tokens != 3070 || c.Window == nil || *c.Window != 258400 || c.Percent == nil || *c.Percent != 3070.0/258400*100 {
		t.Errorf("context %+v", c)
	}
	if len(s.Outputs) != 1 || s.Outputs[0].Path != "/work/shop/notes.txt" || s.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", s.Outputs)
	}
	w.hook("UserPromptSubmit", "prompt", "SECRET-PROMPT")
	if s := w.status(); s.State != status.Busy {
		t.Errorf("after UserPromptSubmit: %s", s.State)
	}
	w.hook("PostToolUse", "tool_name", "Bash", "tool_use_id", "call_1", "tool_input", `{"command":"SECRET-CMD"}`, "tool_response", "SECRET-OUT")
	w.hook("Stop", "last_assistant_message", "SECRET-MSG")
	if s := w.status(); s.State != status.Idle {
		t.Errorf("after Stop: %s", s.State)
	}
	noValuesIn(t, w.h.Dir.Root, "SECRET-PROMPT", "SECRET-CMD", "SECRET-OUT", "SECRET-MSG", "SECRET-CONTENT")
	w.hook("SessionEnd", "reason", "other")
	for _, p := range []string{w.h.Dir.SessionPath(session), w.h.Dir.Path(status.CursorsDir, session+".json")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left after SessionEnd", p)
		}
	}
}

// noValuesIn fails when a file under root holds one of the values.
func noValuesIn(t *testing.T, root string, values ...string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, v := range values {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds %q", p, v)
			}
		}
		return nil
	})
}

// TestSwitchedOffRefused: a request to switch exec_command off refuses the
// next shell call (Bash in the hooks) while it still waits, is taken and
// answered by that hook, and refuses every call after from the kept
// switches; other tools go on; switching it back on lets calls through.
func TestSwitchedOffRefused(t *testing.T) {
	w := newHookWorld(t)
	w.hook("UserPromptSubmit")
	w.send(&request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"exec_command": false}})
	want := "jig: tool exec_command is switched off for this session (jig request tool exec_command on turns it back on)"
	if got := reason(t, w.hook("PreToolUse", "tool_name", "Bash", "tool_use_id", "c9", "tool_input", `{"command":"x"}`)); got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	s := w.status()
	if s.LastRequest == nil || s.LastRequest.ID != "r1" || !s.LastRequest.OK || s.Switches.Tools["exec_command"] ||
		!strings.Contains(s.LastRequest.Message, "jig refuses its calls") {
		t.Errorf("answer %+v, switches %v", s.LastRequest, s.Switches)
	}
	if p, _ := request.Pending(w.h.Dir, session); p != nil {
		t.Error("the request was not taken")
	}
	if got := reason(t, w.hook("PreToolUse", "tool_name", "Bash", "tool_use_id", "c10")); got != want {
		t.Errorf("the next call: %q", got)
	}
	if got := reason(t, w.hook("PreToolUse", "tool_name", "apply_patch", "tool_use_id", "c11")); got != "" {
		t.Errorf("apply_patch refused: %q", got)
	}
	w.send(&request.Request{Schema: 1, ID: "r2", Tools: map[string]bool{"exec_command": true}})
	if got := reason(t, w.hook("PreToolUse", "tool_name", "Bash", "tool_use_id", "c12")); got != "" {
		t.Errorf("switched back on, still refused: %q", got)
	}
}

// TestRefusalFailsClosed: switches that cannot be read refuse every call.
func TestRefusalFailsClosed(t *testing.T) {
	for name, spoil := range map[string]func(w *hookWorld){
		"not JSON": func(w *hookWorld) {
			w.h.Dir.Ensure(SwitchesDir)
			os.WriteFile(w.h.Dir.Path(SwitchesDir, session+".json"), []byte("{"), 0o600)
		},
		"a symlink": func(w *hookWorld) {
			w.h.Dir.Ensure(SwitchesDir)
			os.Symlink("/etc/hostname", w.h.Dir.Path(SwitchesDir, session+".json"))
		},
		"a folder others write": func(w *hookWorld) {
			w.h.Dir.Ensure(SwitchesDir)
			os.Chmod(w.h.Dir.Path(SwitchesDir), 0o777)
		},
	} {
		t.Run(name, func(t *testing.T) {
			w := newHookWorld(t)
			w.hook("UserPromptSubmit")
			spoil(w)
			if got := reason(t, w.hook("PreToolUse", "tool_name", "apply_patch", "tool_use_id", "c1")); !strings.Contains(got, "switches cannot be read") {
				t.Errorf("reason %q", got)
			}
		})
	}
}

// TestRequestAnswers: what Codex cannot do is answered no, with a message.
func TestRequestAnswers(t *testing.T) {
	w := newHookWorld(t)
	w.hook("UserPromptSubmit")
	for _, c := range []struct {
		req    request.Request
		ok     bool
		saying string
	}{
		{request.Request{Reload: true}, false, "Codex cannot be reloaded from outside"},
		{request.Request{Skills: map[string]bool{"imagegen": false}}, false, "no skill named imagegen"},
		{request.Request{Tools: map[string]bool{"nosuch": false}}, false, "no tool named nosuch"},
		{request.Request{Tools: map[string]bool{"mcp__docs__search": false, "view_image": false}}, true, "tool mcp__docs__search off, tool view_image off"},
	} {
		c.req.Schema, c.req.ID = 1, "r-"+strings.ReplaceAll(c.saying[:6], " ", "-")
		w.send(&c.req)
		w.hook("PostToolUse", "tool_name", "Bash", "tool_use_id", "call_1")
		a := w.status().LastRequest
		if a == nil || a.ID != c.req.ID || a.OK != c.ok || !strings.Contains(a.Message, c.saying) || !strings.Contains(a.Message, "applies from the model's next call") {
			t.Errorf("%+v: answer %+v", c.req, a)
		}
	}
}

// TestResumeKeepsSwitches: the file goes at SessionEnd; the session
// resumed gets its switches back.
func TestResumeKeepsSwitches(t *testing.T) {
	w := newHookWorld(t)
	w.hook("UserPromptSubmit")
	w.send(&request.Request{Schema: 1, ID: "r1", Tools: map[string]bool{"exec_command": false}})
	w.hook("Stop")
	w.hook("SessionEnd")
	w.hook("SessionStart", "source", "resume")
	if s := w.status(); s.Switches.Tools["exec_command"] || len(s.Switches.Tools) != 1 {
		t.Errorf("switches after resume %v", s.Switches)
	}
	if got := reason(t, w.hook("PreToolUse", "tool_name", "Bash", "tool_use_id", "c1")); !strings.Contains(got, "exec_command is switched off") {
		t.Errorf("after resume: %q", got)
	}
}

// TestPermissionRequest: the call waiting for the person's approval is
// marked "ask" in recent.
func TestPermissionRequest(t *testing.T) {
	w := newHookWorld(t)
	f, _ := os.OpenFile(w.rollout, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"timestamp":"2026-12-01T10:09:00.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"call_ask"}}` + "\n")
	f.Close()
	w.hook("PermissionRequest", "tool_name", "Bash", "tool_input", `{"command":"SECRET-CMD"}`)
	s := w.status()
	if len(s.Recent) == 0 || s.Recent[0].Outcome != status.Pending || s.Recent[0].Decision != "ask" || s.State != status.Busy {
		t.Errorf("recent %+v, state %s", s.Recent, s.State)
	}
	a := s.Attention
	if a == nil || a.Kind != status.AttentionPermission || a.Tool != "exec_command" || a.Since.IsZero() {
		t.Fatalf("attention %+v, want a permission wait for exec_command", a)
	}
	since := a.Since
	// the waiting call's own PreToolUse keeps the wait and its time
	w.hook("PreToolUse", "tool_name", "Bash", "tool_use_id", "call_ask", "tool_input", `{"command":"SECRET-CMD"}`)
	if a := w.status().Attention; a == nil || !a.Since.Equal(since) {
		t.Errorf("after the call's PreToolUse: attention %+v, want the same wait since %v", a, since)
	}
	// the call's end ends it
	w.hook("PostToolUse", "tool_name", "Bash", "tool_use_id", "call_ask", "tool_input", `{"command":"SECRET-CMD"}`)
	if a := w.status().Attention; a != nil {
		t.Errorf("after the call: attention %+v, want none", a)
	}
	noValuesIn(t, w.h.Dir.Root, "SECRET-CMD")
}

// TestRateLimitsFromTokenCount: Codex's primary and secondary windows are
// filed by their length, as the five-hour and weekly limits.
func TestRateLimitsFromTokenCount(t *testing.T) {
	w := newHookWorld(t)
	f, _ := os.OpenFile(w.rollout, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"timestamp":"2026-12-01T10:09:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null,` +
		`"rate_limits":{"primary":{"used_percent":42.5,"window_minutes":300,"resets_at":1796126400},` +
		`"secondary":{"used_percent":8,"window_minutes":10080,"resets_in_seconds":3600},"credits":null}}}` + "\n")
	f.Close()
	w.hook("UserPromptSubmit", "prompt", "hi")
	rl := w.status().RateLimits
	if rl == nil || rl.FiveHour == nil || rl.FiveHour.UsedPercent != 42.5 || rl.FiveHour.ResetsAt == nil ||
		rl.FiveHour.ResetsAt.Unix() != 1796126400 || rl.Weekly == nil || rl.Weekly.UsedPercent != 8 || rl.Weekly.ResetsAt == nil ||
		!rl.Weekly.ResetsAt.Equal(time.Date(2026, 12, 1, 11, 9, 0, 0, time.UTC)) {
		t.Errorf("rate limits %+v", rl)
	}
}

func TestParseInput(t *testing.T) {
	for _, bad := range []string{`[]`, `{}`, `{"session_id":"s"}`, `{"session_id":7,"hook_event_name":"Stop"}`,
		`{"session_id":"` + strings.Repeat("s", status.MaxID+1) + `","hook_event_name":"Stop"}`} {
		if _, err := ParseInput([]byte(bad)); err == nil {
			t.Errorf("%s taken", bad)
		}
	}
	in, err := ParseInput([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x"}}`))
	if err != nil || in.ToolName != "Bash" {
		t.Errorf("%+v %v", in, err)
	}
}
