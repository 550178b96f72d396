// Package codex puts Codex CLI sessions on jig's schema-1 status contract:
// `jig codex hook`, run by Codex for every event of a session, updates the
// session's status file through the one writer (package writer) from the
// hook's input and Codex's rollout (codex/rollout), takes the session's
// requests and refuses the calls of a tool switched off; Install merges
// the hook into Codex's hooks.json and records it as trusted, as Codex
// requires. docs/codex.md says what each event does and what jig relies on.
package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"jig/hook"
	"jig/request"
	"jig/status"
	"jig/writer"
)

// Input is what Codex pipes to a hook: the fields jig reads. A tool's
// input and output, the prompt and the last message are not fields here,
// so they are never decoded.
type Input struct {
	SessionID      string `json:"session_id"`
	TurnID         string `json:"turn_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Model          string `json:"model"`
	Source         string `json:"source"` // SessionStart: startup, resume, clear, compact
	ToolName       string `json:"tool_name"`
	ToolUseID      string `json:"tool_use_id"`
}

// ParseInput reads Codex's JSON; a session id is required. A field jig
// reads in another shape than expected is named, cut short.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	if err := status.UnmarshalObject(data, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		return nil, errors.New("not a JSON object")
	}
	switch {
	case in.SessionID == "":
		return nil, errors.New("no session_id")
	case len(in.SessionID) > status.MaxID:
		return nil, fmt.Errorf("session_id longer than %d bytes", status.MaxID)
	case in.Event == "":
		return nil, errors.New("no hook_event_name")
	}
	return &in, nil
}

// kinds is Codex's event table: what each event means to the kit.
var kinds = map[string]hook.Kind{
	"SessionStart":      hook.Start,
	"UserPromptSubmit":  hook.Prompt,
	"PreToolUse":        hook.PreTool,
	"PermissionRequest": hook.Permission,
	"PostToolUse":       hook.PostTool,
	"PreCompact":        hook.Working,
	"PostCompact":       hook.Working,
	"Stop":              hook.Stop,
	"SessionEnd":        hook.End,
}

// Hooks handles Codex's hook events for one process's environment.
type Hooks struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int   // Codex's process (hook.Parent: the hook's parent)
	NoDir  error // why Dir is nil: the state dir cannot be had (every call is refused)
}

// Hook handles one event: one read–merge–write of the session's file
// (SessionEnd removes it). It returns what the hook prints on stdout: nil,
// or for a PreToolUse call of a tool switched off, Codex's answer refusing
// it with a reason that names the switch. A refusal is decided before the
// write, without the session's lock; when it refuses, an error of the
// write does not undo it (the caller still prints out).
func (h *Hooks) Hook(in *Input) ([]byte, error) {
	pid, getenv := h.owner(in) // a TUI's, when Codex's background server runs the hook
	k := &hook.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: getenv, Host: h.Host, PID: pid}
	return k.Run(h.agent(in), in.event())
}

// Stdin handles one event read from r (hook.Hooks.Stdin): a PreToolUse is
// decided even when it is too large to record, and refused when it cannot
// be read.
func (h *Hooks) Stdin(r io.Reader) ([]byte, error) {
	k := &hook.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}
	return k.Stdin(r, hook.Reading{PreTool: "PreToolUse", CallIDs: []string{"tool_use_id"}, Head: h.agent(&Input{}),
		Parse: func(data []byte) (func() ([]byte, error), error) {
			in, err := ParseInput(data)
			return func() ([]byte, error) { return h.Hook(in) }, err
		}})
}

// event is Codex's input as the kit's event.
func (in *Input) event() *hook.Event {
	return &hook.Event{Name: in.Event, Kind: kinds[in.Event], Session: in.SessionID, CWD: in.CWD, Tool: in.ToolName,
		CallID: in.ToolUseID, Transcript: in.TranscriptPath}
}

// agent is Codex on the hook kit for one event.
func (h *Hooks) agent(in *Input) *hook.Agent {
	return &hook.Agent{ID: status.AgentCodex, Kept: SwitchesDir, Names: modelNames, Words: hook.PreToolUseDecision{}, Answers: codexWords,
		Step: func(w *writer.Writer, ev *hook.Event) hook.Step {
			src := newSource(w, in, ev.Outcome)
			return hook.Step{AgentDir: Home(h.Getenv), SessionFile: src.pathOrEmpty(), Transcript: src.orNil(),
				Offers: hook.OffersFunc(func(req *request.Request, sw status.Switches) (request.Available, bool) {
					return available(src.reader(), req, sw), true
				}),
				Edit: func(s, prev *status.Status) { edit(s, in, src) }}
		}}
}

// edit is what the hook lays over the status under the lock, after the
// rollout: what the rollout cannot say yet.
func edit(s *status.Status, in *Input, src *source) {
	if s.Thinking != nil && *s.Thinking == "" {
		s.Thinking = nil // the model's default effort, which the rollout does not name
	}
	if s.Model == nil && in.Model != "" {
		// before the rollout's first turn_context: the hook says the model
		s.Model = &status.Model{ID: in.Model, Name: in.Model}
		if r := src.reader(); r != nil {
			s.Model.Provider = r.Provider()
		}
	}
	if r := src.read(); r != nil {
		if w := r.Window(); w != nil {
			s.Context.Window = w
			s.Context.Percent = nil // tokens / window, worked out when the file is written
		}
		if rl := r.RateLimits(); rl != nil {
			s.RateLimits = rl
		}
	}
	src.dropGone(s)
}
