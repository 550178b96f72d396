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
	"time"

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
	if err := json.Unmarshal(data, &in); err != nil {
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

// stateAfter is the state each event leaves the session in ("" leaves it
// as it was).
var stateAfter = map[string]string{
	"SessionStart":      status.Idle,
	"UserPromptSubmit":  status.Busy,
	"PreToolUse":        status.Busy,
	"PermissionRequest": status.Busy,
	"PostToolUse":       status.Busy,
	"PreCompact":        status.Busy,
	"PostCompact":       status.Busy,
	"Stop":              status.Idle,
}

// Hooks handles Codex's hook events for one process's environment.
type Hooks struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int // Codex's process (claude.HookParent: the hook's parent)
}

// Hook handles one event: one read–merge–write of the session's file
// (SessionEnd removes it). It returns what the hook prints on stdout: nil,
// or for a PreToolUse call of a tool switched off, Codex's answer refusing
// it with a reason that names the switch. A refusal is decided before the
// write, without the session's lock; when it refuses, an error of the
// write does not undo it (the caller still prints out).
func (h *Hooks) Hook(in *Input) (out []byte, err error) {
	pid, getenv := h.owner(in) // a TUI's, when Codex's background server runs the hook
	w := writer.New(h.Dir, h.Now, getenv, h.Host)
	switch in.Event {
	case "SessionEnd":
		return nil, w.End(in.SessionID)
	case "SessionStart":
		// a Codex killed hard left its file behind: clean it as for Pi
		h.Dir.GC(status.Liveness{Host: h.Host}, h.Now())
		h.kept().Prune(h.Now())
	case "PreToolUse":
		out = refusal(h.offSwitch(in), in)
	}
	live := map[string]any{}
	if st := stateAfter[in.Event]; st != "" {
		live["state"] = st
	}
	liveJSON, err := json.Marshal(live)
	if err != nil {
		return out, err
	}
	src := newSource(w, in)
	_, err = w.Write(writer.Update{Session: in.SessionID, PID: pid, Agent: status.AgentCodex, AgentDir: Home(h.Getenv),
		SessionFile: src.pathOrEmpty(), CWD: in.CWD, Live: liveJSON, Transcript: src.orNil(),
		Edit: func(s, prev *status.Status) error {
			h.edit(s, prev, in, src)
			return nil
		}})
	return out, err
}

// edit is what the hook lays over the status under the lock, after the
// rollout: what the rollout cannot say yet, switches, requests, a
// permission wait.
func (h *Hooks) edit(s, prev *status.Status, in *Input, src *source) {
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
	if prev == nil {
		// a new file: a resumed session gets back the switches its earlier
		// run kept (the file went at that run's SessionEnd)
		if sw, err := h.kept().Load(in.SessionID); err == nil {
			s.Switches = sw
		}
	}
	src.dropGone(s)
	h.takeRequest(s, src.reader)
	attend(s, in)
}
