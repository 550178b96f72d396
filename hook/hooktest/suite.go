// Package hooktest is the conformance suite every hook agent on package
// hook runs, as restic's backend suite does for its backends: the agent's
// test gives a Harness (how to make its hook's stdin, run its hook, read
// its refusal, write its transcript) and calls Run. What it checks is the
// kit's promise, the same for every agent: a switched-off tool refused on
// every call under load and with the session's lock held, a waiting
// request honoured, a switch merged into a request being taken never lost,
// the refused call recorded as error at once, every request taken
// answered, the wait for the person set and cleared, switches kept across
// a resume, no argument value under the state dir, the file of a killed
// agent gone at the next start, and every call refused when there is no
// state dir to read the switches from. Run it under -race.
package hooktest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/hook"
	"jig/request"
	"jig/status"
)

// Event is one hook event the suite asks the harness's stdin for, in the
// kit's terms.
type Event struct {
	Kind       hook.Kind
	Session    string
	CWD        string
	Tool       string         // the call's tool as the hook names it ("" for none)
	CallID     string         // "" for none
	Transcript string         // the transcript's path ("" when the hook names none)
	Input      map[string]any // the call's arguments, as the agent sends them (values the suite looks for later)
}

// Harness is one hook agent as the suite drives it.
type Harness struct {
	// Stdin is the agent's hook stdin for ev: its own event name for
	// ev.Kind (a permission notice, a question, … as the agent says them),
	// its own field names.
	Stdin func(ev Event) []byte
	// Hook runs one hook in-process as the agent's command does (stdin
	// parsed, the agent's writer made from h, the kit run): its stdout and
	// error.
	Hook func(h *hook.Hooks, stdin []byte) ([]byte, error)
	// Denied is the reason of a PreToolUse answer, "" when out allows the
	// call; it fails t when out is no answer the agent would take.
	Denied func(t testing.TB, out []byte) string
	// Transcript writes, under dir, the transcript of session as the agent
	// leaves it once the session is under way: the tools named (as a
	// request names them) are offered, or were called, so that a request
	// may switch them. Its path.
	Transcript func(t testing.TB, dir, session string, tools []string) string
	// Call appends to the transcript the agent's record of a call of tool
	// (the hook's name) with id, not yet ended, as the agent writes it
	// around its PreToolUse.
	Call func(t testing.TB, transcript, id, tool string)
	// Env is the agent's environment beyond HOME (its own folder, …), for
	// a root folder; nil for none.
	Env func(root string) map[string]string

	Tool   string // a tool the session offers, as its hooks name it (Claude's Bash)
	Switch string // the name a request switches Tool by, and a wait names it (Codex's exec_command for Bash)
	Other  string // another tool offered, named so by the hooks and a request alike
}

// world is one state dir and the agent's folder.
type world struct {
	t    *testing.T
	h    Harness
	root string
	dir  *status.Dir
	env  map[string]string
}

func newWorld(t *testing.T, h Harness) *world {
	root, err := os.MkdirTemp("", "hooktest-")
	if err != nil {
		t.Fatal(err)
	}
	// A refused call's hook gives its write up after a second and answers
	// (in the agent's own process, the write goes with the process); in
	// this one it goes on, so the folder goes once the last writer is done.
	t.Cleanup(func() {
		for range 100 {
			if os.RemoveAll(root) == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("%s cannot be removed", root)
	})
	w := &world{t: t, h: h, root: root, dir: &status.Dir{Root: filepath.Join(root, "state")},
		env: map[string]string{"HOME": root, "TMUX": "/tmp/t,1,0", "TMUX_PANE": "%7"}}
	if h.Env != nil {
		for k, v := range h.Env(root) {
			w.env[k] = v
		}
	}
	return w
}

// hooks is the kit's process fields for an agent process pid.
func (w *world) hooks(pid int) *hook.Hooks {
	return &hook.Hooks{Dir: w.dir, Now: time.Now, Getenv: func(k string) string { return w.env[k] }, Host: "suite", PID: pid}
}

// session is one session of the agent in the world, its transcript
// offering Tool, Other and more.
type session struct {
	*world
	id, transcript string
}

func (w *world) session(id string, more ...string) *session {
	tools := append([]string{w.h.Switch, w.h.Other}, more...)
	return &session{world: w, id: id, transcript: w.h.Transcript(w.t, w.root, id, tools)}
}

// run runs one event of the session; a PreToolUse's refusal reason ("" when allowed).
func (s *session) run(ev Event) (string, error) {
	ev.Session, ev.CWD, ev.Transcript = s.id, "/work/suite", s.transcript
	out, err := s.h.Hook(s.hooks(os.Getpid()), s.h.Stdin(ev))
	if ev.Kind != hook.PreTool {
		if len(out) > 0 {
			s.t.Errorf("%v: the hook answered %s", ev.Kind, out)
		}
		return "", err
	}
	return s.h.Denied(s.t, out), err
}

// runMangled runs a PreToolUse whose stdin mangle changed: its refusal
// reason ("" when allowed).
func (s *session) runMangled(ev Event, mangle func([]byte) []byte) (string, error) {
	ev.Session, ev.CWD, ev.Transcript = s.id, "/work/suite", s.transcript
	out, err := s.h.Hook(s.hooks(os.Getpid()), mangle(s.h.Stdin(ev)))
	return s.h.Denied(s.t, out), err
}

// must runs an event that must succeed.
func (s *session) must(ev Event) string {
	s.t.Helper()
	reason, err := s.run(ev)
	if err != nil {
		s.t.Fatalf("%v %s: %v", ev.Kind, ev.Tool, err)
	}
	return reason
}

func (s *session) status() *status.Status {
	s.t.Helper()
	st, err := s.dir.Read(s.id)
	if err != nil {
		s.t.Fatalf("the status file: %v", err)
	}
	return st
}

// send sends a request switching tools (name → on).
func (s *session) send(tools map[string]bool) *request.Request {
	s.t.Helper()
	req := request.New(time.Now())
	req.Tools = tools
	if _, err := request.Send(s.dir, s.id, req); err != nil {
		s.t.Fatal(err)
	}
	return req
}

func off(name string) map[string]bool { return map[string]bool{name: false} }

// Run runs every check of the suite for the agent.
func Run(t *testing.T, h Harness) {
	for _, c := range []struct {
		name  string
		check func(t *testing.T, h Harness)
	}{
		{"ParallelRefusals", parallelRefusals},
		{"RefusedWithTheLockHeld", refusedWithTheLockHeld},
		{"WaitingRequestHonoured", waitingRequestHonoured},
		{"MergeRace", mergeRace},
		{"RefusedIsError", refusedIsError},
		{"EveryRequestAnswered", everyRequestAnswered},
		{"Attention", attention},
		{"ResumeKeepsSwitches", resumeKeepsSwitches},
		{"NoValues", noValues},
		{"GCAfterKill", gcAfterKill},
		{"HugeOrGarbled", hugeOrGarbled},
		{"NoStateDir", noStateDir},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, h) })
	}
}

// parallel runs n PreToolUse hooks of tool at once, each a call the
// transcript records; their reasons.
func (s *session) parallel(n int, tool string, withTranscript bool) []string {
	reasons := make([]string, n)
	hooked := s
	if !withTranscript {
		hooked = &session{world: s.world, id: s.id} // the hooks name no transcript
	}
	round := fmt.Sprint(time.Now().UnixNano())
	id := func(i int) string { return fmt.Sprintf("call_p%s_%02d", round, i) }
	if withTranscript {
		for i := range n {
			s.h.Call(s.t, s.transcript, id(i), tool)
		}
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := hooked.run(Event{Kind: hook.PreTool, Tool: tool, CallID: id(i)})
			if err != nil && r == "" {
				s.t.Errorf("hook %d: %v", i, err)
			}
			reasons[i] = r
		})
	}
	wg.Wait()
	return reasons
}

func (s *session) allRefused(what string, reasons []string, name string) {
	s.t.Helper()
	n := 0
	for _, r := range reasons {
		if strings.Contains(r, "tool "+name+" is switched off") {
			n++
		}
	}
	if n != len(reasons) {
		s.t.Errorf("%s: %d of %d refused (%q)", what, n, len(reasons), reasons)
	}
}

// parallelRefusals: thirty parallel PreToolUse hooks of a tool switched
// off are all refused; thirty of another tool all allowed.
func parallelRefusals(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-parallel")
	s.must(Event{Kind: hook.Start})
	s.send(off(h.Switch))
	s.must(Event{Kind: hook.Prompt})
	if st := s.status(); st.Switches.Tools[h.Switch] || st.LastRequest == nil || !st.LastRequest.OK {
		t.Fatalf("the request was not taken: switches %v, answer %+v", st.Switches, st.LastRequest)
	}
	s.allRefused("30 at once", s.parallel(30, h.Tool, true), h.Switch)
	for i, r := range s.parallel(30, h.Other, true) {
		if r != "" {
			t.Errorf("allowed call %d refused: %s", i, r)
		}
	}
}

// refusedWithTheLockHeld: a writer of the session that hangs, holding its
// lock, delays no refusal: the hooks answer, the lock still held.
func refusedWithTheLockHeld(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-locked")
	s.must(Event{Kind: hook.Prompt})
	s.send(off(h.Switch))
	s.must(Event{Kind: hook.Prompt})
	unlock, err := s.dir.Lock(s.id)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	s.allRefused("the lock held", s.parallel(5, h.Tool, true), h.Switch)
}

// waitingRequestHonoured: a switch in a request nobody took yet counts at
// once, for thirty parallel calls, whether or not the hook names a
// transcript (before it, the agent may not be able to take the request);
// the request is answered or still waits, never lost.
func waitingRequestHonoured(t *testing.T, h Harness) {
	for _, withTranscript := range []bool{false, true} {
		s := newWorld(t, h).session(fmt.Sprintf("suite-waiting-%v", withTranscript))
		req := s.send(off(h.Switch))
		s.allRefused(fmt.Sprintf("transcript named: %v", withTranscript), s.parallel(30, h.Tool, withTranscript), h.Switch)
		pending, _ := request.Pending(s.dir, s.id)
		st, err := s.dir.Read(s.id)
		answered := err == nil && request.Answered(st.LastRequest, req.ID)
		if pending == nil && !answered {
			t.Errorf("transcript named: %v: the request is gone unanswered", withTranscript)
		}
	}
}

// mergeRace: `jig request tool X off` merged into a request a hook is
// taking at that moment, then a PreToolUse of X: refused, every round.
func mergeRace(t *testing.T, h Harness) {
	w := newWorld(t, h)
	rounds, failed := 200, 0
	if testing.Short() {
		rounds = 40
	}
	for round := range rounds {
		s := w.session(fmt.Sprintf("suite-race-%03d", round))
		s.must(Event{Kind: hook.Prompt})
		s.send(off(h.Other))
		var wg sync.WaitGroup
		wg.Go(func() { s.run(Event{Kind: hook.Prompt}) }) // takes the request, or the merged one
		s.send(off(h.Switch))
		id := fmt.Sprintf("call_race%03d", round)
		s.h.Call(t, s.transcript, id, h.Tool) // recorded first: an agent that waits for the call's entry finds it
		reason, _ := s.run(Event{Kind: hook.PreTool, Tool: h.Tool, CallID: id})
		wg.Wait()
		if !strings.Contains(reason, "tool "+h.Switch+" is switched off") {
			failed++
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d rounds let a call of %s through after it was switched off", failed, rounds, h.Switch)
	}
}

// refusedIsError: a call jig's own PreToolUse refused is recorded as error
// at once, not pending; and the refused PreToolUse of another call ends a
// standing permission wait.
func refusedIsError(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-refused")
	s.must(Event{Kind: hook.Prompt})
	s.send(off(h.Other))
	s.must(Event{Kind: hook.Prompt})
	s.h.Call(t, s.transcript, "call_wait", h.Tool)
	s.must(Event{Kind: hook.Permission, Tool: h.Tool, CallID: "call_wait"})
	if a := s.status().Attention; a == nil || a.Kind != status.AttentionPermission {
		t.Fatalf("no permission wait: %+v", a)
	}
	s.h.Call(t, s.transcript, "call_refused", h.Other)
	if r := s.must(Event{Kind: hook.PreTool, Tool: h.Other, CallID: "call_refused"}); r == "" {
		t.Fatal("the call of a tool switched off was allowed")
	}
	st := s.status()
	if len(st.Recent) == 0 || st.Recent[0].Tool != h.Other || st.Recent[0].Outcome != status.Error {
		t.Errorf("the refused call: recent %+v, want %s error first", st.Recent, h.Other)
	}
	if st.Attention != nil {
		t.Errorf("a refused PreToolUse of another call left the wait %+v", st.Attention)
	}
}

// everyRequestAnswered: past the 64 switches a status file keeps, the
// request is still taken and answered, ok:false with the reason; what it
// could do applies.
func everyRequestAnswered(t *testing.T, h Harness) {
	var many []string
	for i := range status.MaxSwitches + 2 {
		many = append(many, fmt.Sprintf("suite_t%02d", i))
	}
	s := newWorld(t, h).session("suite-many", many...)
	s.must(Event{Kind: hook.Prompt})
	first := map[string]bool{}
	for _, name := range many[:status.MaxSwitches-2] {
		first[name] = false
	}
	s.send(first)
	s.must(Event{Kind: hook.Prompt})
	if a := s.status().LastRequest; a == nil || !a.OK {
		t.Fatalf("62 switches: %+v", a)
	}
	req := s.send(map[string]bool{h.Switch: false, many[62]: false, many[63]: false, many[64]: false})
	if _, err := s.run(Event{Kind: hook.Prompt}); err != nil {
		t.Fatalf("the hook taking the 65th switch: %v", err)
	}
	st := s.status()
	a := st.LastRequest
	if a == nil || a.ID != req.ID || a.OK || !strings.Contains(a.Message, "at most 64") {
		t.Errorf("the 65th switch: answer %+v, want ok:false saying at most 64", a)
	}
	if len(st.Switches.Tools) != status.MaxSwitches || st.Switches.Tools[h.Switch] {
		t.Errorf("switches %d, %s %v", len(st.Switches.Tools), h.Switch, st.Switches.Tools[h.Switch])
	}
	if p, _ := request.Pending(s.dir, s.id); p != nil {
		t.Error("the request still waits")
	}
}

// attention: a permission request sets the wait for its tool, the call's
// own PreToolUse keeps it, its end clears it; a stop clears it too.
func attention(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-attention")
	s.must(Event{Kind: hook.Prompt})
	s.h.Call(t, s.transcript, "call_a", h.Tool)
	s.must(Event{Kind: hook.Permission, Tool: h.Tool, CallID: "call_a"})
	st := s.status()
	a := st.Attention
	if a == nil || a.Kind != status.AttentionPermission || a.Tool != h.Switch || a.Since.IsZero() || st.State != status.Busy {
		t.Fatalf("after the permission request: %+v, state %s", a, st.State)
	}
	since := a.Since
	s.must(Event{Kind: hook.PreTool, Tool: h.Tool, CallID: "call_a"})
	if a := s.status().Attention; a == nil || !a.Since.Equal(since) {
		t.Errorf("the call's own PreToolUse: %+v, want the wait since %v", a, since)
	}
	s.must(Event{Kind: hook.PostTool, Tool: h.Tool, CallID: "call_a"})
	if a := s.status().Attention; a != nil {
		t.Errorf("after the call: %+v", a)
	}
	s.must(Event{Kind: hook.Permission, Tool: h.Other})
	s.must(Event{Kind: hook.Stop})
	if st := s.status(); st.Attention != nil || st.State != status.Idle {
		t.Errorf("after the stop: %+v, state %s", st.Attention, st.State)
	}
}

// resumeKeepsSwitches: the file goes at the session's end; the session
// resumed gets its switches back and its calls are refused.
func resumeKeepsSwitches(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-resume")
	s.must(Event{Kind: hook.Prompt})
	s.send(off(h.Switch))
	s.must(Event{Kind: hook.Stop})
	s.must(Event{Kind: hook.End})
	if _, err := s.dir.Read(s.id); err == nil {
		t.Fatal("the file stayed after the end")
	}
	s.must(Event{Kind: hook.Start})
	if st := s.status(); st.Switches.Tools[h.Switch] || len(st.Switches.Tools) != 1 {
		t.Errorf("switches after the resume: %v", st.Switches)
	}
	if r := s.must(Event{Kind: hook.PreTool, Tool: h.Tool}); !strings.Contains(r, "tool "+h.Switch+" is switched off") {
		t.Errorf("after the resume: %q", r)
	}
}

// noValues: no argument value of any call, allowed or refused, reaches a
// file under the state dir: plain, base64, hex or JSON-escaped.
func noValues(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-values")
	secret := `SUITE-SECRET "quoted" <é>`
	args := map[string]any{"command": secret, "file_path": "/work/suite/" + secret, "content": secret}
	s.must(Event{Kind: hook.Prompt})
	s.h.Call(t, s.transcript, "call_v1", h.Tool)
	s.must(Event{Kind: hook.Permission, Tool: h.Tool, CallID: "call_v1", Input: args})
	s.must(Event{Kind: hook.PreTool, Tool: h.Tool, CallID: "call_v1", Input: args})
	s.must(Event{Kind: hook.PostTool, Tool: h.Tool, CallID: "call_v1", Input: args})
	s.send(off(h.Switch))
	s.h.Call(t, s.transcript, "call_v2", h.Tool)
	if r := s.must(Event{Kind: hook.PreTool, Tool: h.Tool, CallID: "call_v2", Input: args}); strings.Contains(r, "SUITE-SECRET") {
		t.Errorf("the refusal repeats a value: %s", r)
	}
	js, _ := json.Marshal(secret)
	encodings := []string{secret, "SUITE-SECRET", base64.StdEncoding.EncodeToString([]byte(secret)), hex.EncodeToString([]byte(secret)), strings.Trim(string(js), `"`)}
	filepath.WalkDir(s.dir.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, enc := range encodings {
			if bytes.Contains(data, []byte(enc)) {
				t.Errorf("%s holds the value %q", p, enc)
			}
		}
		return nil
	})
}

// gcAfterKill: an agent killed hard leaves its file; the next session's
// start on the host removes it.
func gcAfterKill(t *testing.T, h Harness) {
	w := newWorld(t, h)
	agent := exec.Command("sleep", "60")
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	killed := w.session("suite-killed")
	stdin := h.Stdin(Event{Kind: hook.Start, Session: killed.id, CWD: "/work/suite", Transcript: killed.transcript})
	if _, err := h.Hook(w.hooks(agent.Process.Pid), stdin); err != nil {
		t.Fatal(err)
	}
	if _, err := w.dir.Read(killed.id); err != nil {
		t.Fatalf("the killed agent's file: %v", err)
	}
	agent.Process.Kill()
	agent.Wait()
	w.session("suite-next").must(Event{Kind: hook.Start})
	if _, err := w.dir.Read(killed.id); err == nil {
		t.Error("the killed agent's file stayed after the next start")
	}
}

// hugeOrGarbled: a PreToolUse whose arguments are larger than a status
// file (5 MiB, a Write of a big file) is still decided: refused when its
// tool is switched off, allowed when not. One that cannot be read (not
// JSON, cut short, small or huge) is refused, its tool switched off or not:
// jig cannot tell which call it is (fail closed).
func hugeOrGarbled(t *testing.T, h Harness) {
	s := newWorld(t, h).session("suite-huge")
	s.must(Event{Kind: hook.Prompt})
	s.send(off(h.Switch))
	s.must(Event{Kind: hook.Prompt})
	huge := map[string]any{"file_path": "/work/suite/big.txt", "content": strings.Repeat("SUITE-HUGE ", 5<<20/11+1)}
	same := func(stdin []byte) []byte {
		if len(stdin) <= status.MaxFileSize {
			t.Fatalf("the stdin is %d bytes, not larger than a status file", len(stdin))
		}
		return stdin
	}
	s.h.Call(t, s.transcript, "call_huge1", h.Tool)
	if r, _ := s.runMangled(Event{Kind: hook.PreTool, Tool: h.Tool, CallID: "call_huge1", Input: huge}, same); !strings.Contains(r, "tool "+h.Switch+" is switched off") {
		t.Errorf("5 MiB of arguments, %s switched off: %q", h.Switch, r)
	}
	s.h.Call(t, s.transcript, "call_huge2", h.Other)
	if r, err := s.runMangled(Event{Kind: hook.PreTool, Tool: h.Other, CallID: "call_huge2", Input: huge}, same); r != "" || err != nil {
		t.Errorf("5 MiB of arguments, %s not switched off: reason %q, error %v", h.Other, r, err)
	}
	const marker = `"SUITE-GARBLE"`
	garbled := map[string]any{"command": "SUITE-GARBLE", "content": huge["content"]}
	for name, mangle := range map[string]func([]byte) []byte{
		"not JSON":        func(b []byte) []byte { return bytes.Replace(b, []byte(marker), []byte("SUITE-GARBLE"), 1) },
		"cut short":       func(b []byte) []byte { return b[:bytes.Index(b, []byte(marker))+4] },
		"huge, not JSON":  func(b []byte) []byte { return bytes.Replace(same(b), []byte(marker), []byte("SUITE-GARBLE"), 1) },
		"huge, cut short": func(b []byte) []byte { return same(b)[:len(b)-8] },
	} {
		input := map[string]any{"command": "SUITE-GARBLE"}
		if strings.HasPrefix(name, "huge") {
			input = garbled
		}
		s.h.Call(t, s.transcript, "call_garbled", h.Other)
		if r, _ := s.runMangled(Event{Kind: hook.PreTool, Tool: h.Other, CallID: "call_garbled", Input: input}, mangle); !strings.Contains(r, "cannot read") {
			t.Errorf("%s: a PreToolUse of %s: %q, want it refused", name, h.Other, r)
		}
	}
}

// noStateDir: when the state dir cannot be had (no JIG_STATE_DIR, XDG
// state or HOME) no switch can be read, so every call is refused, small
// or huge, the cause said beside; any other event says the cause, and
// nothing is written.
func noStateDir(t *testing.T, h Harness) {
	w := newWorld(t, h)
	s := w.session("suite-nodir")
	k := w.hooks(os.Getpid())
	k.Dir, k.NoDir = nil, errors.New("no state dir: the suite's")
	huge := map[string]any{"content": strings.Repeat("SUITE-HUGE ", 5<<20/11+1)}
	for _, input := range []map[string]any{nil, huge} {
		ev := Event{Kind: hook.PreTool, Session: s.id, CWD: "/work/suite", Transcript: s.transcript, Tool: h.Other, CallID: "call_nodir", Input: input}
		out, err := h.Hook(k, h.Stdin(ev))
		if r := h.Denied(t, out); !strings.Contains(r, "cannot be read") || err == nil || !strings.Contains(err.Error(), "no state dir") {
			t.Errorf("a PreToolUse of %s (%d arguments) without a state dir: reason %q, error %v; want it refused, the cause said", h.Other, len(input), r, err)
		}
	}
	out, err := h.Hook(k, h.Stdin(Event{Kind: hook.Stop, Session: s.id, CWD: "/work/suite", Transcript: s.transcript}))
	if len(out) > 0 || err == nil {
		t.Errorf("a Stop without a state dir: %s, %v; want no answer and the cause", out, err)
	}
	if _, err := os.Stat(w.dir.Root); !os.IsNotExist(err) {
		t.Errorf("the state dir was made: %v", err)
	}
}
