package claude

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"time"

	cct "jig/claude/transcript"
	"jig/request"
	"jig/status"
)

// Events jig's hooks are installed for, and the state each leaves the
// session in ("" leaves it as it was).
var Events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop",
	"SubagentStop", "PreCompact", "Notification", "PermissionRequest", "SessionEnd"}

var stateAfter = map[string]string{
	"SessionStart":       status.Idle,
	"UserPromptSubmit":   status.Busy,
	"PreToolUse":         status.Busy,
	"PostToolUse":        status.Busy,
	"PostToolUseFailure": status.Busy,
	"SubagentStop":       status.Busy, // the main agent goes on
	"PreCompact":         status.Busy,
	"PermissionRequest":  status.Busy, // a call waits for approval: the turn goes on
	"Stop":               status.Idle,
}

// questionNotices are the Notification types that say Claude asks the
// person something (an MCP server's form or link) and waits.
var questionNotices = map[string]bool{"elicitation_dialog": true, "elicitation_url_dialog": true, "agent_needs_input": true}

// permissionNotices say a call waits for the person's approval.
var permissionNotices = map[string]bool{"permission_prompt": true, "worker_permission_prompt": true}

// attention is what the session waits for from the person after the
// event, from what Claude says (never its screen): keep, when the event
// says nothing of it. PermissionRequest names the call's tool; a
// Notification of a permission prompt (after it, or alone) keeps the tool
// the request named; AskUserQuestion and an elicitation wait for an
// answer. The next tool event (but the waiting call's own PreToolUse),
// prompt or stop ends the wait.
func attention(in *Input, prev *status.Status) (a *status.Attention, keep bool) {
	if a, keep, ok := questionWait(in, prev); ok {
		return a, keep
	}
	switch in.Event {
	case "PermissionRequest":
		return &status.Attention{Kind: status.AttentionPermission, Tool: toolName(in.ToolName)}, false
	case "Notification":
		switch {
		case permissionNotices[in.NotificationType]:
			a := &status.Attention{Kind: status.AttentionPermission}
			if p := prevAttention(prev); p != nil && p.Kind == status.AttentionPermission {
				a.Tool = p.Tool
			}
			return a, false
		case questionNotices[in.NotificationType]:
			return &status.Attention{Kind: status.AttentionQuestion}, false
		}
		return nil, true // idle_prompt, auth_success, …: nothing of a wait
	case "PreToolUse":
		// Claude runs a call's PreToolUse hooks and its permission request
		// at once: the call's own PreToolUse, written after the request,
		// must not end the wait it is part of.
		if a := prevAttention(prev); a != nil && a.Kind == status.AttentionPermission && a.Tool != "" && a.Tool == in.ToolName {
			return nil, true
		}
		return nil, false
	case "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SessionStart":
		return nil, false
	}
	return nil, true
}

func prevAttention(prev *status.Status) *status.Attention {
	if prev == nil {
		return nil
	}
	return prev.Attention
}

// toolName is a tool's name as the status takes it: a name, else none.
func toolName(name string) string {
	if status.IsToolName(name) {
		return name
	}
	return ""
}

// answerGrace is how long an answer stays readable when the session ends
// right after giving it (a request taken at a print-mode run's last Stop):
// `jig request --wait` polls every 50 ms and takes the file gone for "ended
// before it answered".
const answerGrace = time.Second

// Hook handles one hook event and returns what the hook prints on stdout:
// nil, or for a PreToolUse call of a tool (or skill) switched off, Claude's
// answer refusing it with a reason that names the switch.
func (w *Writer) Hook(in *Input) ([]byte, error) {
	switch in.Event {
	case "SessionStart":
		// a Claude killed hard left its file behind: clean it as for Pi
		w.Dir.GC(status.Liveness{Host: w.Host}, w.Now())
		w.pruneSwitches(w.Now())
	case "PreToolUse":
		// Decided from the switches as they stand, without the session's
		// lock: parallel calls' hooks run at once, and none may wait on
		// the others or on a writer that hangs to refuse.
		sw, err := w.switchesNow(in.SessionID)
		refused := refusal(sw, in)
		if err != nil {
			refused = deny("jig: this session's switches cannot be read (" + status.Cut(err.Error()) + "): every call is refused until they can")
		}
		if refused != nil {
			return w.refuse(in, refused), nil
		}
	}
	live := map[string]any{}
	if st := stateAfter[in.Event]; st != "" {
		live["state"] = st
	}
	// Claude writes the call's result into its transcript only after
	// its PostToolUse hooks ran: the hook's own input says it first.
	s, err := w.update(in, live, w.output(in), func(s, prev *status.Status, _ *cct.Reader) {
		if a, keep := attention(in, prev); !keep {
			s.Attention = a // since: Dir.Update keeps the first while the same wait goes on
		}
	})
	switch {
	case in.Event == "SessionEnd":
		if err == nil && s.LastRequest != nil {
			// a request taken now or at the last Stop: its answer stays
			// readable a moment before the file goes
			if age := w.Now().Sub(s.LastRequest.At); age >= 0 && age < answerGrace {
				time.Sleep(answerGrace - age)
			}
		}
		return nil, w.End(in.SessionID)
	case err != nil || in.Event != "PreToolUse":
		return nil, err
	}
	return refusal(s.Switches, in), nil // with the request this event took
}

// refusedWrite bounds how long a refused call's hook tries to record the
// event (the reply before it, a waiting request) before it answers anyway.
const refusedWrite = time.Second

// refuse records a refused call's event as any other, if it can within
// refusedWrite, and answers: with the refusal, or with what the switches
// say once written (a request the write took may have turned the tool
// back on). Whatever the write does, in time or not, the call stays
// refused unless the written switches allow it.
func (w *Writer) refuse(in *Input, refused []byte) []byte {
	done := make(chan []byte, 1)
	go func() {
		s, err := w.update(in, map[string]any{"state": status.Busy}, nil, nil)
		if err != nil {
			done <- refused
			return
		}
		done <- refusal(s.Switches, in)
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(refusedWrite):
		return refused // the lock is held too long: the write is given up with the process
	}
}

// switchesNow are the session's switches as they stand, read without the
// lock and without blocking: its status file's (else what its earlier run
// kept), with what a waiting request switches off laid over (a call of a
// tool being switched off is refused before the request is taken). An
// error means they cannot be known: the caller refuses.
func (w *Writer) switchesNow(session string) (status.Switches, error) {
	var sw status.Switches
	if err := w.Dir.Check(status.SessionsDir); err != nil {
		return sw, err
	}
	s, err := w.Dir.Read(session)
	switch {
	case err == nil:
		sw = s.Switches
	case errors.Is(err, fs.ErrNotExist):
		k, err := w.readKept(session)
		if err != nil {
			return sw, err
		}
		sw = k.Switches
	default:
		return sw, err
	}
	req, err := request.Pending(w.Dir, session)
	var bad *request.BadError
	switch {
	case errors.As(err, &bad) || req == nil:
		return sw, nil // none waits, or a bad one, which switches nothing (its taker answers it)
	case err != nil:
		return sw, err
	}
	return status.Switches{Tools: offOver(sw.Tools, req.Tools), Skills: offOver(sw.Skills, req.Skills)}, nil
}

// offOver is the switches with the names a request turns off laid over.
func offOver(cur, req map[string]bool) map[string]bool {
	out := maps.Clone(cur)
	for name, on := range req {
		if !on {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = false
		}
	}
	return out
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
	return deny(reason)
}

// deny is PreToolUse's answer refusing the call, with the reason the model
// is told.
func deny(reason string) []byte {
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
