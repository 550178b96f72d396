package gemini

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"jig/hook"
	"jig/request"
	"jig/status"
)

// SwitchesDir keeps each Gemini session's switches beyond its status file,
// which goes at SessionEnd: `gemini --resume` of the session gets them
// back. The kit decides a BeforeTool refusal from it and the waiting
// request.
const SwitchesDir = "gemini-switches"

// builtinTools are the tools Gemini CLI 0.61.0 may offer the model, by
// the names it offers them under (its *_TOOL_NAME constants): a request
// may switch any of them, any tool the model called, and any MCP tool
// (mcp_<server>_<tool>).
var builtinTools = []string{"activate_skill", "ask_user", "complete_task", "enter_plan_mode", "exit_plan_mode",
	"get_internal_docs", "glob", "google_web_search", "grep_search", "invoke_agent", "list_background_processes",
	"list_directory", "list_mcp_resources", "read_background_output", "read_file", "read_many_files",
	"read_mcp_resource", "replace", "run_shell_command", "take_snapshot", "tracker_add_dependency",
	"tracker_create_task", "tracker_get_task", "tracker_list_tasks", "tracker_update_task", "tracker_visualize",
	"update_topic", "web_fetch", "write_file", "write_todos"}

// deny is BeforeTool's refusal in Gemini CLI's protocol: decision "deny"
// and the reason, which Gemini gives the model as the call's error
// ("Tool execution blocked: <reason>"). No call id: Gemini names none.
type deny struct{}

func (deny) Deny(_ *hook.Event, reason string) []byte {
	out, _ := json.Marshal(map[string]string{"decision": "deny", "reason": reason})
	return append(out, '\n')
}

// geminiWords word a request's answer for Gemini CLI.
var geminiWords = request.Hooked{
	Dropped:  "Gemini CLI cannot drop a tool mid-session (BeforeToolSelection still sends every declaration): jig refuses its calls",
	Idle:     "Gemini CLI is idle: applies from the next prompt",
	Busy:     "applies from the model's next call",
	Reload:   "reload: Gemini CLI cannot be reloaded from outside; restart it with gemini --resume",
	NoSkills: "Gemini CLI's skills are instructions the model activates: jig cannot switch them",
}

// offers is what a request may switch in a Gemini session: the built-in
// tools, what the record says the model called, what an earlier run
// switched and the MCP tools a request names. It can always say.
type offers struct{ src *source }

func (o offers) Offers(req *request.Request, sw status.Switches) (request.Available, bool) {
	tools := slices.Clone(builtinTools)
	if r := o.src.reader(); r != nil {
		tools = append(tools, r.Called()...)
	}
	for name := range sw.Tools {
		tools = append(tools, name)
	}
	for name := range req.Tools {
		if strings.HasPrefix(name, "mcp_") {
			tools = append(tools, name)
		}
	}
	sort.Strings(tools)
	return request.Available{Tools: slices.Compact(tools)}, true
}
