// Package gemini puts Gemini CLI sessions on jig's schema-1 status
// contract, on the hook kit (package hook): `jig gemini hook`, run by
// Gemini CLI for every event of a session, updates the session's status
// file from the hook's input and Gemini's chat record (gemini/chat), takes
// the session's requests and refuses the calls of a tool switched off;
// Install merges the hook into Gemini's settings.json. docs/gemini.md says
// what each event does and what jig relies on.
package gemini

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"jig/engine"
	"jig/gemini/chat"
	"jig/hook"
	"jig/status"
	"jig/writer"
)

// ID is a Gemini CLI session's `agent` in its status file.
const ID = "gemini"

// kinds is Gemini CLI's event table: what each event means to the kit.
// BeforeModel runs once per model request: the turn goes on, and a wait
// for the person is over (the call was answered, or there was none).
// Notification's kind is its notification_type's (event).
var kinds = map[string]hook.Kind{
	"SessionStart": hook.Start,
	"BeforeAgent":  hook.Prompt,
	"BeforeModel":  hook.Prompt,
	"BeforeTool":   hook.PreTool,
	"AfterTool":    hook.PostTool,
	"PreCompress":  hook.Working,
	"AfterAgent":   hook.Stop,
	"SessionEnd":   hook.End,
}

// event is the input as the kit's event. BeforeTool names no call id:
// the refusal is by the tool's name alone. A ToolPermission notification
// is a permission wait; the tool is the call waiting for it.
func (in *Input) event() *hook.Event {
	ev := &hook.Event{Name: in.Event, Kind: kinds[in.Event], Session: in.SessionID, CWD: in.CWD, Tool: in.ToolName,
		Transcript: in.TranscriptPath}
	switch {
	case in.Event == "Notification" && in.NotificationType == "ToolPermission":
		ev.Kind = hook.Permission
	case in.Event == "AfterTool":
		ev.Outcome = status.OK
	}
	return ev
}

// Hooks handles Gemini CLI's hook events for one process's environment.
type Hooks struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int   // Gemini's process (hook.Parent: the hook's parent, past the shell)
	NoDir  error // why Dir is nil: the state dir cannot be had (every call is refused)
}

// Hook handles one event and returns what the hook prints on stdout: nil,
// or for a BeforeTool call of a tool switched off, Gemini's answer
// refusing it with a reason that names the switch. When it refuses, an
// error of the write does not undo it: the caller prints the answer.
func (h *Hooks) Hook(in *Input) ([]byte, error) {
	ev := in.event()
	k := &hook.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}
	return k.Run(h.agent(in), ev)
}

// Stdin handles one event read from r (ReadInput): a BeforeTool that
// cannot be read is refused (Refusal), the error said beside it.
func (h *Hooks) Stdin(r io.Reader) ([]byte, error) {
	in, err := ReadInput(r)
	if err != nil {
		return Refusal(in), status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
	}
	return h.Hook(in)
}

// waiting is the tool a permission prompt is for, its notification naming
// none: the newest call still pending in the session's file (BeforeTool
// runs before Gemini CLI asks, and records it), else in the record read on
// from the saved cursor. Both are read before the lock: a rename keeps
// the file whole, the record is only appended to.
func (h *Hooks) waiting(w *writer.Writer, session string, src *source) string {
	if s, err := h.Dir.Read(session); err == nil {
		for _, c := range s.Recent {
			if c.Outcome == status.Pending {
				return c.Tool
			}
		}
	}
	if src == nil {
		return ""
	}
	r := chat.NewReader(src.path)
	if c, err := chat.RestoreReader(src.path, w.Cursor(session)); err == nil {
		r = c
	}
	if r.Update() != nil {
		return ""
	}
	return r.Pending()
}

// agent is Gemini CLI on the hook kit for one event.
func (h *Hooks) agent(in *Input) *hook.Agent {
	return &hook.Agent{ID: ID, Kept: SwitchesDir, Words: deny{}, Answers: geminiWords,
		Step: func(w *writer.Writer, ev *hook.Event) hook.Step {
			src := newSource(w, in)
			if ev.Kind == hook.Permission && ev.Tool == "" {
				ev.Tool = h.waiting(w, in.SessionID, src)
			}
			live := map[string]any{}
			if in.Model != "" {
				live["model"] = map[string]any{"provider": chat.Provider, "id": in.Model, "name": in.Model}
			}
			written := h.output(in)
			st := hook.Step{AgentDir: chat.Home(h.Getenv), Live: live,
				Edit: func(s, _ *status.Status) { h.edit(s, ev, written) }}
			if src != nil {
				st.SessionFile, st.Transcript = src.path, src
			}
			st.Offers = offers{src}
			return st
		}}
}

// output is the file a successful AfterTool's call wrote, from its
// returnDisplay: the path and whether the call created it; nil for none.
// The record says it too, a moment later.
func (h *Hooks) output(in *Input) *status.Output {
	if in.Event != "AfterTool" || in.Written == nil || !filepath.IsAbs(in.Written.FilePath) {
		return nil
	}
	o := &status.Output{Path: filepath.Clean(in.Written.FilePath), Action: status.Changed, At: h.Now().UTC()}
	if in.Written.IsNewFile {
		o.Action = status.Created
	}
	return o
}

// edit is what the hook lays over the status under the lock, after the
// record: what the record has no word for, the call the record writes
// only once it ran (Gemini CLI records a call with its result), and the
// file AfterTool saw written (created once stays created, as the record's
// reader keeps it).
func (h *Hooks) edit(s *status.Status, ev *hook.Event, written *status.Output) {
	if o := written; o != nil {
		for _, x := range s.Outputs {
			if x.Path == o.Path && x.Action == status.Created {
				o.Action = status.Created
			}
		}
		s.Outputs = engine.MergeOutputs([]status.Output{*o}, s.Outputs)
	}
	if s.Thinking != nil && *s.Thinking == "" {
		s.Thinking = nil // Gemini CLI records no effort
	}
	now := h.Now().UTC()
	switch ev.Kind {
	case hook.PreTool:
		if !status.IsToolName(ev.Tool) {
			return
		}
		outcome := status.Pending
		if ev.Outcome != "" {
			outcome = ev.Outcome // refused
		}
		s.Recent = append([]status.Call{{At: now, Tool: ev.Tool, Action: chat.Action(ev.Tool), Outcome: outcome}}, s.Recent...)
		if len(s.Recent) > status.MaxRecent {
			s.Recent = s.Recent[:status.MaxRecent]
		}
	case hook.PostTool:
		i := slices.IndexFunc(s.Recent, func(c status.Call) bool { return c.Tool == ev.Tool && c.Outcome == status.Pending })
		if i >= 0 {
			s.Recent[i].Outcome = ev.Outcome
		}
	}
}
