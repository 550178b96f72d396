package codex

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"jig/codex/rollout"
	"jig/request"
	"jig/status"
)

// SwitchesDir keeps each Codex session's switches beyond its status file,
// which goes at SessionEnd: `codex resume` or `codex exec resume` of the
// session gets them back. It is also what PreToolUse decides a refusal
// from: the switches are saved there before a request is taken.
const SwitchesDir = "codex-switches"

func (h *Hooks) kept() request.Kept { return request.Kept{Dir: h.Dir, Folder: SwitchesDir} }

// shellTools are the model's names of the tools whose calls reach the
// hooks as Bash (exec_command in Codex 0.169.0; the others in other
// models' tool sets).
var shellTools = []string{"exec_command", "shell", "shell_command", "local_shell"}

// builtinTools are the tools Codex 0.169.0 may offer the model, by the
// names it offers them under: a request may switch any of them, and any
// tool the model called, and any MCP tool (mcp__server__tool).
var builtinTools = append(slices.Clone(shellTools), "write_stdin", "apply_patch", "view_image", "request_user_input",
	"web_search", "update_plan", "get_goal", "create_goal", "update_goal")

// modelNames are the names the model was offered a hook's tool under.
func modelNames(hookTool string) []string {
	if hookTool == "Bash" {
		return shellTools
	}
	return []string{hookTool}
}

// switchesWait bounds how long PreToolUse waits for the switches: past it,
// the call is refused (fail closed).
const switchesWait = 2 * time.Second

// offSwitch decides, without the session's lock, which switch (the
// model's tool name) refuses a PreToolUse call: the switches the session
// kept laid under the request waiting to be taken. "" allows the call. When
// the switches cannot be read, or not within switchesWait, it refuses:
// the reason says why.
func (h *Hooks) offSwitch(in *Input) string {
	type result struct {
		sw  status.Switches
		err error
	}
	done := make(chan result, 1)
	go func() {
		// the request first, then the kept switches: a request taken in
		// between was saved into them before it left requests/
		req, err := request.Pending(h.Dir, in.SessionID)
		var bad *request.BadError
		if errors.As(err, &bad) {
			req, err = nil, nil // a bad request changes no switch
		}
		sw, kerr := h.kept().Load(in.SessionID)
		if err == nil {
			err = kerr
		}
		if req != nil {
			for name, on := range req.Tools {
				sw.Tools[name] = on
			}
		}
		done <- result{sw, err}
	}()
	t := time.NewTimer(switchesWait)
	defer t.Stop()
	var res result
	select {
	case res = <-done:
	case <-t.C:
		return "?"
	}
	if res.err != nil {
		return "?"
	}
	for _, name := range modelNames(in.ToolName) {
		if on, ok := res.sw.Tools[name]; ok && !on {
			return name
		}
	}
	return ""
}

// refusal is PreToolUse's answer refusing a call for the switch off ("?":
// the switches could not be read); nil for no switch.
func refusal(off string, in *Input) []byte {
	var reason string
	switch off {
	case "":
		return nil
	case "?":
		reason = "jig: cannot read this session's tool switches, so every call is refused until it can"
	default:
		reason = "jig: tool " + off + " is switched off for this session (jig request tool " + off + " on turns it back on)"
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason,
	}})
	return append(out, '\n')
}

// available is what a request may switch in this session.
func available(r *rollout.Reader, req *request.Request, sw status.Switches) request.Available {
	tools := slices.Clone(builtinTools)
	if r != nil {
		tools = append(tools, r.Called()...)
	}
	for name := range sw.Tools {
		tools = append(tools, name) // what an earlier run switched, maybe not called yet in this one
	}
	if req != nil {
		for name := range req.Tools {
			if strings.HasPrefix(name, "mcp__") {
				tools = append(tools, name)
			}
		}
	}
	sort.Strings(tools)
	return request.Available{Tools: slices.Compact(tools)}
}

// takeRequest takes the session's waiting request, if any, and writes its
// answer and switches into s. The switches are saved (SwitchesDir) before
// the request leaves requests/, so that PreToolUse, which reads the two
// without the lock, never finds a switch in neither. Codex cannot drop a
// tool mid-session, so a switch off is enforced by refusing the calls; it
// cannot reload, nor switch a skill.
func (h *Hooks) takeRequest(s *status.Status, reader func() *rollout.Reader) {
	now := h.Now()
	req, err := request.Pending(h.Dir, s.Session)
	if err != nil && !errors.As(err, new(*request.BadError)) || req == nil && err == nil {
		return // nothing waits, or the folder cannot be used now: it waits
	}
	r := reader()
	var out *request.Outcome
	if req != nil {
		o := request.Resolve(req, available(r, req, s.Switches), s.Switches, now)
		if h.kept().Save(s.Session, o.Switches) != nil {
			return // not saved: the request waits, and PreToolUse still sees it
		}
		out = &o
	}
	taken, answer, _ := request.Take(h.Dir, s.Session, now) // a bad request's error is its answer
	switch {
	case answer != nil: // a bad request: answered, nothing switched
		s.LastRequest = answer
		return
	case taken == nil:
		return // gone meanwhile, or a bad one without an id
	case req == nil || taken.ID != req.ID:
		// another request was merged in after it was read: decide it whole
		o := request.Resolve(taken, available(r, taken, s.Switches), s.Switches, now)
		h.kept().Save(s.Session, o.Switches)
		out = &o
	}
	var notes []string
	if len(taken.Skills) > 0 {
		notes = append(notes, "Codex's skills are instructions, not calls: jig cannot switch them")
	}
	ans := codexWords.Answer(s.Switches, *out, s.State == status.Idle, notes...)
	s.Switches = out.Switches
	s.LastRequest = &ans
}

// codexWords word a request's answer for Codex.
var codexWords = request.Hooked{
	Dropped: "Codex cannot drop a tool mid-session: jig refuses its calls",
	Idle:    "Codex is idle: applies from the next prompt",
	Busy:    "applies from the model's next call",
	Reload:  "reload: Codex cannot be reloaded from outside; restart it with codex resume",
}

// attend records what the session waits for from the person, from what
// Codex says (never its screen): a PermissionRequest is a permission wait
// for its tool (named as the model is offered it), and marks the newest
// pending call of that tool "ask", as Pi's writer records jig-core's word.
// The waiting call's own PreToolUse keeps the wait; any other tool event,
// a prompt, a stop or a new start ends it.
func attend(s *status.Status, in *Input) {
	names := modelNames(in.ToolName)
	switch in.Event {
	case "PermissionRequest":
		tool := ""
		if len(names) > 0 && status.IsToolName(names[0]) {
			tool = names[0]
		}
		s.Attention = &status.Attention{Kind: status.AttentionPermission, Tool: tool} // since: kept while the same wait goes on
		for i := range s.Recent {
			if c := &s.Recent[i]; c.Outcome == status.Pending && slices.Contains(names, c.Tool) {
				c.Decision = "ask"
				break
			}
		}
	case "PreToolUse":
		if a := s.Attention; a != nil && a.Kind == status.AttentionPermission && slices.Contains(names, a.Tool) {
			return // the waiting call's own
		}
		s.Attention = nil
	case "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart":
		s.Attention = nil
	}
}
