// Package hook is the kit every hook-driven agent runs on (Claude Code,
// Codex, Gemini CLI, Qwen Code): the agent turns its hook's stdin into a
// neutral Event and says what only it knows; the kit does the rest, once
// for all: the clean-up at a session's start, the refusal of a call
// switched off (decided without the session's lock, bounded, fail closed),
// the locked write through package writer, taking the session's request,
// the attention rules, the deny answer in the agent's own words, and the
// session's end with the answer's grace.
//
// An agent is three parts on the kit: its event table (Kind for each of
// its events), its transcript (a writer.Source, and Offers for what a
// request may switch) and its words (Words, request.Hooked). Its command
// hands stdin to Hooks.Stdin (an agent that reads its input whole) or
// reads it itself and calls Hooks.Run, and prints what they return, even
// with an error: a refusal stands whatever became of the write. A
// PreToolUse never fails without an answer, not even when there is no
// state dir (Hooks.NoDir): Claude Code and Codex run the
// call of a hook that exits other than 0 or 2. One too large to record is
// decided from its head, one that cannot be read is refused (input.go).
//
// # The one order of a switch
//
// A switch travels `jig request` → requests/<session>.json → the kept
// switches (<state>/<Agent.Kept>/<session>.json) → the status file. A
// PreToolUse reads the waiting request first, then the kept switches,
// and a request's switches count at once, while it waits. A hook that
// takes a request saves the switches it makes into the kept file before
// the request leaves requests/ (request.TakeKept, under the requests
// lock, so nothing is merged into it meanwhile). So a switch is in the one
// or the other at every moment, and a PreToolUse begun after `jig request`
// returned sees it. docs/how-it-works.md walks it step by step.
package hook

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"jig/request"
	"jig/status"
	"jig/writer"
)

// Kind is what one of an agent's events means to the kit: the state it
// leaves the session in and what it does to a wait for the person.
type Kind int

const (
	Other            Kind = iota // says nothing of the state or a wait
	Start                        // the session starts, resumes or clears: idle; no wait
	Prompt                       // the person sent a prompt: busy; no wait
	PreTool                      // a call is about to run: busy; refused when switched off
	PostTool                     // a call ended: busy; no wait
	ToolFailed                   // a call failed: busy; no wait
	Permission                   // a call waits for the person's approval: busy; a permission wait for its tool
	PermissionNotice             // the agent says a permission prompt shows: a permission wait (the tool kept)
	Question                     // the agent asks the person something and waits: a question wait
	Working                      // busy, a wait as it was (a compaction, a subagent's end)
	Stop                         // the turn ended: idle; no wait
	End                          // the session ends: its file goes
)

var kindNames = [...]string{"Other", "Start", "Prompt", "PreTool", "PostTool", "ToolFailed", "Permission",
	"PermissionNotice", "Question", "Working", "Stop", "End"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// state is the state each kind leaves the session in ("" as it was).
func (k Kind) state() string {
	switch k {
	case Start, Stop:
		return status.Idle
	case Prompt, PreTool, PostTool, ToolFailed, Permission, Working:
		return status.Busy
	}
	return ""
}

// Event is one hook event in the kit's terms, as the agent read it from
// its stdin. Only names and ids: a tool's arguments never reach the kit.
type Event struct {
	Name       string // the agent's own name of the event (hook_event_name)
	Kind       Kind   // what it means, from the agent's event table
	Session    string // the agent's session id (required)
	CWD        string // the agent's working folder, "" when it said none
	Tool       string // the call's tool as the hook names it
	CallID     string // the call's id, "" when the event has none
	Transcript string // the agent's transcript, absolute, "" when the hook names none
	Skill      string // the skill the call runs (a skill tool's argument), "" for none
	Asks       bool   // the call asks the person a question (Claude's AskUserQuestion)
	// Outcome is how the event says its call ended (status.OK,
	// status.Error), "" when it does not. The kit sets status.Error for
	// a call it refuses, before the agent's Step: the agent's transcript
	// records the call so at once, not pending until its next read.
	Outcome string
}

// Agent is what a hook-driven agent supplies once.
type Agent struct {
	ID   string // the status file's agent (status.AgentClaude, …)
	Kept string // the state dir's folder that keeps the switches past the session's file (request.Kept)
	// Names are the names a switch of the hook's tool goes by (Codex's
	// Bash is the model's exec_command, shell, …), the first the one a
	// wait names; nil: the tool's own name.
	Names   func(tool string) []string
	Words   Words          // the deny answer in the agent's protocol
	Answers request.Hooked // how a request's answer is worded for it
	// Step is the agent's part of one event (below). It is called once
	// per write, before the session's lock; it may wait briefly for its
	// transcript there, never under the lock.
	Step func(w *writer.Writer, ev *Event) Step
}

// Words is an agent's hook protocol's refusal.
type Words interface {
	// Deny is the hook's stdout refusing the call ev, the reason told to
	// the model: one JSON value and a newline, as the agent reads it.
	Deny(ev *Event, reason string) []byte
}

// Step is what the agent knows of one event beyond the neutral Event.
type Step struct {
	AgentDir    string          // the agent's own folder
	SessionFile string          // the agent's transcript as the status names it ("" none)
	Live        map[string]any  // JSON fields the agent says live; the kit adds the state
	Outputs     []status.Output // files the event saw written
	// Transcript is the event's transcript (nil: none); Offers is what a
	// request may switch as it says (nil: the request waits).
	Transcript writer.Source
	Offers     Offers
	// Edit is the agent's last word under the lock (writer.Update.Edit):
	// after the transcript and the kept switches, before the request is
	// taken and the wait set. It must not block.
	Edit func(s, prev *status.Status)
}

// Offers says what a request may switch in the session.
type Offers interface {
	// Offers is what the session has for req, given its switches, from
	// what the transcript read under the lock says; ok false when it
	// cannot say yet (the request waits for a later event). It must not
	// block: it runs under the session's and the requests' locks.
	Offers(req *request.Request, sw status.Switches) (have request.Available, ok bool)
}

// Hooks runs one agent process's hook events.
type Hooks struct {
	Dir    *status.Dir
	NoDir  error // why Dir is nil: the state dir cannot be had, so nothing is read or written and every call is refused
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int // the agent's process
}

// refusedWrite bounds how long a refused call's hook tries to record the
// event before it answers anyway: the refusal never waits on the lock.
const refusedWrite = time.Second

// answerGrace is how long an answer stays readable when the session ends
// right after giving it: `jig request --wait` polls every 50 ms and takes
// the file gone for "ended before it answered".
const answerGrace = time.Second

// Run handles one event: one read–merge–write of the session's file
// (End removes it after). It returns what the hook prints on stdout: nil,
// or for a PreToolUse call switched off, the agent's refusal. When it
// refuses, an error of the write does not undo it: the caller prints out
// and says the error.
func (h *Hooks) Run(a *Agent, ev *Event) ([]byte, error) {
	if h.Dir == nil { // no state dir: no switch can be read, so a call is refused (fail closed)
		if ev.Kind == PreTool {
			return a.Words.Deny(ev, h.refusal(a, ev)), h.NoDir
		}
		return nil, h.NoDir
	}
	switch ev.Kind {
	case Start:
		// an agent killed hard left its file behind: clean it as for Pi
		h.Dir.GC(status.Liveness{Host: h.Host}, h.Now())
		h.kept(a).Prune(h.Now())
	case PreTool:
		if reason := h.refusal(a, ev); reason != "" {
			ev.Outcome = status.Error
			return a.Words.Deny(ev, reason), h.writeBounded(a, ev)
		}
	}
	s, took, err := h.write(a, ev)
	switch {
	case ev.Kind == End:
		if err == nil && s.LastRequest != nil {
			// a request taken now or at the last stop: its answer stays
			// readable a moment before the file goes
			if age := h.Now().Sub(s.LastRequest.At); age >= 0 && age < answerGrace {
				time.Sleep(answerGrace - age)
			}
		}
		return nil, writer.New(h.Dir, h.Now, h.Getenv, h.Host).End(ev.Session)
	case err != nil || ev.Kind != PreTool || !took:
		return nil, err
	}
	// this call's own hook took a request: what it switched counts now
	if reason := offReason(h.names(a, ev), ev.Skill, s.Switches); reason != "" {
		return a.Words.Deny(ev, reason), nil
	}
	return nil, nil
}

// Write is one write of the session's file outside a hook event (Claude's
// statusLine): the agent's Step, the kept switches, the request taken.
func (h *Hooks) Write(a *Agent, ev *Event) (*status.Status, error) {
	s, _, err := h.write(a, ev)
	return s, err
}

// writeBounded records a refused call's event, if it can within
// refusedWrite: the write's error, nil when it was given up (the lock is
// held too long: the write goes with the process).
func (h *Hooks) writeBounded(a *Agent, ev *Event) error {
	done := make(chan error, 1)
	go func() {
		_, _, err := h.write(a, ev)
		done <- err
	}()
	t := time.NewTimer(refusedWrite)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return nil
	}
}

// write is the event's read–merge–write, and whether it took a request.
func (h *Hooks) write(a *Agent, ev *Event) (*status.Status, bool, error) {
	w := writer.New(h.Dir, h.Now, h.Getenv, h.Host)
	st := a.Step(w, ev)
	live := st.Live
	if live == nil {
		live = map[string]any{}
	}
	if state := ev.Kind.state(); state != "" {
		live["state"] = state
	}
	liveJSON, err := json.Marshal(live)
	if err != nil {
		return nil, false, err
	}
	took, answered := false, status.Status{}
	s, err := w.Write(writer.Update{Session: ev.Session, PID: h.PID, Agent: a.ID, AgentDir: st.AgentDir,
		SessionFile: st.SessionFile, CWD: ev.CWD, Live: liveJSON, Outputs: st.Outputs, Transcript: st.Transcript,
		Edit: func(s, prev *status.Status) error {
			if prev == nil {
				// a new file: a resumed session gets back the switches its
				// earlier run kept (the file went at that run's end)
				if sw, err := h.kept(a).Load(ev.Session); err == nil {
					s.Switches = sw
				}
			}
			if st.Edit != nil {
				st.Edit(s, prev)
			}
			if took = h.take(a, st.Offers, s); took {
				answered = *s
			}
			attend(s, prev, ev, h.names(a, ev))
			return nil
		}})
	if err != nil && took {
		h.answerAlone(&answered)
	}
	return s, took, err
}

// answerAlone writes a request's answer and switches into the session's
// file as it is, when the event's write was refused after the request
// left requests/: a request taken is always answered (when there is a file
// to answer in).
func (h *Hooks) answerAlone(taken *status.Status) {
	h.Dir.Update(taken.Session, h.Now(), func(s *status.Status) (*status.Status, error) {
		if s == nil {
			return nil, errNoFile
		}
		s.LastRequest, s.Switches = taken.LastRequest, taken.Switches
		return s, nil
	})
}

var errNoFile = errors.New("no status file")

func (h *Hooks) kept(a *Agent) request.Kept { return request.Kept{Dir: h.Dir, Folder: a.Kept} }

// names are the names a switch of ev's tool goes by.
func (h *Hooks) names(a *Agent, ev *Event) []string {
	if ev.Tool == "" {
		return nil
	}
	if a.Names == nil {
		return []string{ev.Tool}
	}
	return a.Names(ev.Tool)
}

// PreToolUseDecision is the refusal of the agents that answer Claude
// Code's way (Claude Code, Codex, Qwen Code): hookSpecificOutput with
// permissionDecision "deny" and the reason.
type PreToolUseDecision struct{}

func (PreToolUseDecision) Deny(_ *Event, reason string) []byte {
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason,
	}})
	return append(out, '\n')
}

// OffersFunc is a function as Offers.
type OffersFunc func(req *request.Request, sw status.Switches) (request.Available, bool)

func (f OffersFunc) Offers(req *request.Request, sw status.Switches) (request.Available, bool) {
	return f(req, sw)
}
