package claude

import (
	"encoding/json"
	"io"
	"path/filepath"

	"jig/hook"
	"jig/status"
)

// Events are the events jig's hooks are installed for.
var Events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop",
	"SubagentStop", "PreCompact", "Notification", "PermissionRequest", "SessionEnd"}

// kinds is Claude's event table: what each event means to the kit.
// Notification's kind is its notification_type's (event).
var kinds = map[string]hook.Kind{
	"SessionStart":       hook.Start,
	"UserPromptSubmit":   hook.Prompt,
	"PreToolUse":         hook.PreTool,
	"PostToolUse":        hook.PostTool,
	"PostToolUseFailure": hook.ToolFailed,
	"SubagentStop":       hook.Working, // the main agent goes on
	"PreCompact":         hook.Working,
	"PermissionRequest":  hook.Permission, // a call waits for approval: the turn goes on
	"Stop":               hook.Stop,
	"SessionEnd":         hook.End,
}

// questionNotices are the Notification types that say Claude asks the
// person something (an MCP server's form or link) and waits.
var questionNotices = map[string]bool{"elicitation_dialog": true, "elicitation_url_dialog": true, "agent_needs_input": true}

// permissionNotices say a call waits for the person's approval.
var permissionNotices = map[string]bool{"permission_prompt": true, "worker_permission_prompt": true}

// event is Claude's input as the kit's event. A Notification of a
// permission prompt keeps the tool the request named; AskUserQuestion
// waits for an answer; the Skill tool runs the skill its argument names
// (the one argument read, never kept). Claude writes a call's result into
// its transcript only after its after-tool hooks ran: those events say
// how the call ended first.
func (in *Input) event() *hook.Event {
	ev := &hook.Event{Name: in.Event, Kind: kinds[in.Event], Session: in.SessionID, CWD: in.CWD, Tool: in.ToolName,
		CallID: in.ToolUseID, Transcript: in.TranscriptPath, Asks: in.ToolName == "AskUserQuestion"}
	switch {
	case in.Event == "Notification" && permissionNotices[in.NotificationType]:
		ev.Kind = hook.PermissionNotice
	case in.Event == "Notification" && questionNotices[in.NotificationType]:
		ev.Kind = hook.Question
	case in.Event == "PostToolUse":
		ev.Outcome = status.OK
	case in.Event == "PostToolUseFailure":
		ev.Outcome = status.Error
	}
	if in.ToolName == "Skill" {
		var arg struct {
			Skill string `json:"skill"`
		}
		json.Unmarshal(in.ToolInput, &arg)
		ev.Skill = arg.Skill
	}
	return ev
}

// Hook handles one hook event and returns what the hook prints on stdout:
// nil, or for a PreToolUse call of a tool (or skill) switched off, Claude's
// answer refusing it with a reason that names the switch. When it refuses,
// an error of the write does not undo it: the caller prints the answer.
func (w *Writer) Hook(in *Input) ([]byte, error) {
	return w.hooks().Run(w.agent(in, map[string]any{}, nil), in.event())
}

// reading is how the kit reads Claude's hook input: whole when it fits a
// status file, else a PreToolUse from its head. The Skill tool's argument
// names the skill.
func (w *Writer) reading() hook.Reading {
	return hook.Reading{PreTool: "PreToolUse", SkillTool: "Skill", CallIDs: []string{"tool_use_id"},
		Head: w.agent(&Input{}, nil, nil),
		Parse: func(data []byte) (func() ([]byte, error), error) {
			in, err := ParseInput(data)
			return func() ([]byte, error) { return w.Hook(in) }, err
		}}
}

// HookStdin handles one hook event read from r (hook.Hooks.Stdin): a
// PreToolUse is decided even when it is too large to record, and refused
// when it cannot be read.
func (w *Writer) HookStdin(r io.Reader) ([]byte, error) { return w.hooks().Stdin(r, w.reading()) }

func (w *Writer) hooks() *hook.Hooks {
	return &hook.Hooks{Dir: w.Dir, NoDir: w.NoDir, Now: w.Now, Getenv: w.Getenv, Host: w.Host, PID: w.PID}
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
