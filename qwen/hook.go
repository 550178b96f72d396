package qwen

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"jig/hook"
	qt "jig/qwen/transcript"
	"jig/request"
	"jig/status"
	"jig/writer"
)

// Input is what Qwen Code pipes to a hook: the fields jig reads. A tool's
// arguments are read for the path a write touches only, and never kept;
// the prompt and messages are not fields here, so they are never decoded.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	CWD            string          `json:"cwd"`
	Event          string          `json:"hook_event_name"`
	Model          string          `json:"model"` // SessionStart's
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	ToolUseID      string          `json:"tool_use_id"`  // Qwen's own id of the call
	ToolCallID     string          `json:"tool_call_id"` // the model's id of it, which the transcript records
	// Notification's kind (permission_prompt, auth_success, …); its
	// message is never read.
	NotificationType string `json:"notification_type"`
	// Stop's: the context as Qwen counts it, the last prompt's tokens of
	// the model's window.
	ContextLimit *int64 `json:"context_limit"`
	InputTokens  *int64 `json:"input_tokens"`
}

// ParseInput reads Qwen's JSON; a session id and an event are required. A
// field jig reads in another shape than expected is named, cut short.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	if err := status.UnmarshalObject(data, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("field %s: %s is not a %s", te.Field, status.Cut(te.Value), te.Type)
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

// kinds is Qwen's event table: what each event means to the kit. A
// Notification's kind is its notification_type's.
var kinds = map[string]hook.Kind{
	"SessionStart":       hook.Start,
	"UserPromptSubmit":   hook.Prompt, // also after each tool batch, with an empty prompt: the turn goes on
	"PreToolUse":         hook.PreTool,
	"PostToolUse":        hook.PostTool,
	"PostToolUseFailure": hook.ToolFailed,
	"PermissionRequest":  hook.Permission, // the approval prompt is about to show
	"PreCompact":         hook.Working,
	"Stop":               hook.Stop,
	"StopFailure":        hook.Stop, // an API error ended the turn
	"SessionEnd":         hook.End,
}

// event is Qwen's input as the kit's event. The call's id is the model's
// (tool_call_id), which the transcript records; tool_use_id is Qwen's own.
// Of Qwen 0.24.4's notification types (auth_success, idle_prompt,
// permission_prompt) only permission_prompt says a wait; a question is its
// ask_user_question tool's call.
func (in *Input) event() *hook.Event {
	ev := &hook.Event{Name: in.Event, Kind: kinds[in.Event], Session: in.SessionID, CWD: in.CWD, Tool: in.ToolName,
		CallID: in.ToolCallID, Asks: in.ToolName == "ask_user_question"}
	if ev.CallID == "" {
		ev.CallID = in.ToolUseID
	}
	if filepath.IsAbs(in.TranscriptPath) {
		ev.Transcript = in.TranscriptPath
	}
	switch {
	case in.Event == "Notification" && in.NotificationType == "permission_prompt":
		ev.Kind = hook.PermissionNotice
	case in.Event == "PostToolUse":
		ev.Outcome = status.OK
	case in.Event == "PostToolUseFailure":
		ev.Outcome = status.Error
	}
	return ev
}

// Hooks handles Qwen Code's hook events for one process's environment.
type Hooks struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int   // Qwen's process (hook.Parent: the hook's parent)
	NoDir  error // why Dir is nil: the state dir cannot be had (every call is refused)
}

// SwitchesDir keeps each Qwen session's switches beyond its status file,
// which goes at SessionEnd: `qwen --resume` of the session gets them back.
const SwitchesDir = "qwen-switches"

// Hook handles one event and returns what the hook prints on stdout: nil,
// or for a PreToolUse call of a tool switched off, Qwen's answer refusing
// it (Claude's shape: permissionDecision "deny" and the reason). When it
// refuses, an error of the write does not undo it: the caller prints out.
func (h *Hooks) Hook(in *Input) ([]byte, error) {
	kit := &hook.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}
	return kit.Run(h.agent(in), in.event())
}

// Stdin handles one event read from r (hook.Hooks.Stdin): Hook of what
// ParseInput makes of it. Bad input is refused whole (status.ErrBadInput):
// more than a status file holds, or not Qwen's JSON; but a PreToolUse is
// decided even when it is too large to record, and refused when it cannot
// be read. The call's id is the model's (tool_call_id), as in event.
func (h *Hooks) Stdin(r io.Reader) ([]byte, error) {
	kit := &hook.Hooks{Dir: h.Dir, NoDir: h.NoDir, Now: h.Now, Getenv: h.Getenv, Host: h.Host, PID: h.PID}
	return kit.Stdin(r, hook.Reading{PreTool: "PreToolUse", CallIDs: []string{"tool_call_id", "tool_use_id"}, Head: h.agent(&Input{}),
		Parse: func(data []byte) (func() ([]byte, error), error) {
			in, err := ParseInput(data)
			return func() ([]byte, error) { return h.Hook(in) }, err
		}})
}

// agent is Qwen on the hook kit for one event.
func (h *Hooks) agent(in *Input) *hook.Agent {
	return &hook.Agent{ID: ID, Kept: SwitchesDir, Words: hook.PreToolUseDecision{}, Answers: qwenWords,
		Step: func(w *writer.Writer, ev *hook.Event) hook.Step {
			src := newSource(w, ev)
			output := h.output(in)
			st := hook.Step{AgentDir: Home(h.Getenv), SessionFile: ev.Transcript, Offers: offers{src},
				Edit: func(s, prev *status.Status) { h.edit(s, in, src, output) }}
			if src != nil {
				st.Transcript = src
			}
			return st
		}}
}

// edit is what the hook lays over the status under the lock, after the
// transcript: the model before Qwen's first reply, the window (Stop's
// figures are Qwen's own), the file a write touched.
func (h *Hooks) edit(s *status.Status, in *Input, src *source, output *status.Output) {
	if s.Model == nil && in.Model != "" {
		s.Model = &status.Model{Provider: qt.Provider, ID: in.Model, Name: in.Model}
	}
	if r := src.read(); r != nil && r.Window() != nil {
		s.Context.Window, s.Context.Percent = r.Window(), nil
	}
	if in.Event == "Stop" && in.ContextLimit != nil && *in.ContextLimit > 0 {
		win := *in.ContextLimit
		s.Context.Window, s.Context.Percent = &win, nil // the percent is worked out when the file is written
		if in.InputTokens != nil && *in.InputTokens > 0 {
			tok := *in.InputTokens
			s.Context.Tokens = &tok
		}
	}
	if output != nil {
		was := slices.ContainsFunc(s.Outputs, func(o status.Output) bool { return o.Path == output.Path && o.Action == status.Created })
		o := *output
		if was {
			o.Action = status.Created // once created, a file stays created (qwen/transcript's rule)
		}
		s.Outputs = mergeOutput(s.Outputs, o)
	}
}

// mergeOutput puts o in outs in place of the entry of its path.
func mergeOutput(outs []status.Output, o status.Output) []status.Output {
	outs = slices.DeleteFunc(slices.Clone(outs), func(x status.Output) bool { return x.Path == o.Path })
	return status.LimitOutputs(append([]status.Output{o}, outs...))
}

// output is the file a successful write_file or edit touched, from
// PostToolUse's input: its path (the one argument kept) and whether the
// tool created it (the words it told the model). Qwen writes the call's
// result into the transcript only after its PostToolUse hooks ran.
func (h *Hooks) output(in *Input) *status.Output {
	if in.Event != "PostToolUse" || !qt.Writes(in.ToolName) {
		return nil
	}
	var arg struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	json.Unmarshal(in.ToolInput, &arg)
	p := arg.FilePath
	if p == "" {
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
		LLMContent json.RawMessage `json:"llmContent"`
	}
	json.Unmarshal(in.ToolResponse, &res)
	var said string
	json.Unmarshal(res.LLMContent, &said)
	o := &status.Output{Path: filepath.Clean(p), Action: status.Changed, At: h.Now().UTC()}
	if qt.Created(said) {
		o.Action = status.Created
	}
	return o
}

// builtinTools are the tools Qwen Code 0.24.4 may offer the model, by the
// names it offers them under (its ToolNames): a request may switch any of
// them, any tool the model called, and any MCP tool (mcp__server__tool).
// The transcript does not record what a request offered.
var builtinTools = []string{"agent", "ask_user_question", "cron_create", "cron_delete", "cron_list", "edit",
	"enter_plan_mode", "exit_plan_mode", "get_goal", "glob", "grep_search", "list_agents", "list_directory", "lsp",
	"notebook_edit", "read_file", "run_shell_command", "save_memory", "skill", "todo_write", "tool_call",
	"tool_search", "update_goal", "web_fetch", "web_search", "write_file"}

// offers says what a request may switch in a Qwen session: always known
// (Qwen's own list), so a request never waits for a first reply.
type offers struct{ src *source }

func (o offers) Offers(req *request.Request, sw status.Switches) (request.Available, bool) {
	tools := slices.Clone(builtinTools)
	if r := o.src.reader(); r != nil {
		tools = append(tools, r.Called()...)
	}
	for name := range sw.Tools {
		tools = append(tools, name) // what an earlier run switched, maybe not called yet in this one
	}
	for name := range req.Tools {
		if strings.HasPrefix(name, "mcp__") {
			tools = append(tools, name)
		}
	}
	sort.Strings(tools)
	return request.Available{Tools: slices.Compact(tools)}, true
}

// qwenWords word a request's answer for Qwen Code.
var qwenWords = request.Hooked{
	Dropped:  "Qwen Code cannot drop a tool mid-session: jig refuses its calls",
	Idle:     "Qwen Code is idle: applies from the next prompt",
	Busy:     "applies from the model's next call",
	Reload:   "reload: Qwen Code cannot be reloaded from outside; restart it with qwen --continue",
	NoSkills: "jig cannot switch one of Qwen Code's skills: switch its skill tool off instead",
}
