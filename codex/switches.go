package codex

import (
	"slices"
	"sort"
	"strings"

	"jig/codex/rollout"
	"jig/request"
	"jig/status"
)

// SwitchesDir keeps each Codex session's switches beyond its status file,
// which goes at SessionEnd: `codex resume` or `codex exec resume` of the
// session gets them back. It is also what PreToolUse decides a refusal
// from (package hook): the switches are saved there before a request
// leaves requests/.
const SwitchesDir = "codex-switches"

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

// codexWords word a request's answer for Codex.
var codexWords = request.Hooked{
	Dropped:  "Codex cannot drop a tool mid-session: jig refuses its calls",
	Idle:     "Codex is idle: applies from the next prompt",
	Busy:     "applies from the model's next call",
	Reload:   "reload: Codex cannot be reloaded from outside; restart it with codex resume",
	NoSkills: "Codex's skills are instructions, not calls: jig cannot switch them",
}
