package claude

import (
	"encoding/json"
	"path/filepath"

	"jig/status"
)

// Events jig's hooks are installed for, and the state each leaves the
// session in ("" leaves it as it was).
var Events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop",
	"SubagentStop", "PreCompact", "Notification", "SessionEnd"}

var stateAfter = map[string]string{
	"SessionStart":     status.Idle,
	"UserPromptSubmit": status.Busy,
	"PreToolUse":       status.Busy,
	"PostToolUse":      status.Busy,
	"SubagentStop":     status.Busy, // the main agent goes on
	"PreCompact":       status.Busy,
	"Stop":             status.Idle,
}

// Hook handles one hook event and returns what the hook prints on stdout:
// nil, or for a PreToolUse call of a tool (or skill) switched off, Claude's
// answer refusing it with a reason that names the switch.
func (w *Writer) Hook(in *Input) ([]byte, error) {
	switch in.Event {
	case "SessionEnd":
		return nil, w.End(in.SessionID)
	case "SessionStart":
		// a Claude killed hard left its file behind: clean it as for Pi
		w.Dir.GC(status.Liveness{Host: w.Host}, w.Now())
		w.pruneSwitches(w.Now())
	}
	live := map[string]any{}
	if st := stateAfter[in.Event]; st != "" {
		live["state"] = st
	}
	var outputs []status.Output
	if o := w.output(in); o != nil {
		// Claude writes the call's result into its transcript only after
		// its PostToolUse hooks ran: the hook's own input says it first.
		outputs = []status.Output{*o}
	}
	s, err := w.update(in, live, outputs, nil)
	if err != nil || in.Event != "PreToolUse" {
		return nil, err
	}
	return refusal(s.Switches, in), nil
}

// refusal is PreToolUse's answer for a call of a tool, or of the Skill tool
// for a skill, switched off in this session; nil for any other call.
func refusal(sw status.Switches, in *Input) []byte {
	var reason string
	if on, ok := sw.Tools[in.ToolName]; ok && !on {
		reason = "jig: tool " + in.ToolName + " is switched off for this session (jig request tool " + in.ToolName + " on turns it back on)"
	} else if in.ToolName == "Skill" {
		var arg struct {
			Skill string `json:"skill"`
		}
		json.Unmarshal(in.ToolInput, &arg)
		if on, ok := sw.Skills[arg.Skill]; ok && !on {
			reason = "jig: skill " + arg.Skill + " is switched off for this session (jig request skill " + arg.Skill + " on turns it back on)"
		}
	}
	if reason == "" {
		return nil
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason,
	}})
	return append(out, '\n')
}

// output is the file a successful Write, Edit, MultiEdit or NotebookEdit
// touched, from PostToolUse's input: its path (the one argument kept) and
// whether the tool created it.
func (w *Writer) output(in *Input) *status.Output {
	if in.Event != "PostToolUse" {
		return nil
	}
	switch in.ToolName {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
	default:
		return nil
	}
	var arg struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	json.Unmarshal(in.ToolInput, &arg)
	p := arg.FilePath
	if in.ToolName == "NotebookEdit" {
		p = arg.NotebookPath
	}
	if p == "" {
		return nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(in.CWD, p)
	}
	if !status.PlacedPath(p) {
		return nil // relative to no known folder: the status file takes placed paths only
	}
	var res struct {
		Type string `json:"type"`
	}
	json.Unmarshal(in.ToolResponse, &res)
	o := &status.Output{Path: filepath.Clean(p), Action: status.Changed, At: w.Now().UTC()}
	if res.Type == "create" {
		o.Action = status.Created
	}
	return o
}
