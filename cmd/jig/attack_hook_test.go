package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"jig/exit"
	"jig/internal/hammer"
	"jig/request"
	"jig/status"
)

// hookAgent is one hook agent's command as the attack below runs it.
type hookAgent struct {
	cmd, preTool, postTool string
	off, offSwitch, on     string // a tool switched off (the hook's name, the request's), one not
}

var hookAgents = []hookAgent{
	{"claude", "PreToolUse", "PostToolUse", "Bash", "Bash", "Write"},
	{"codex", "PreToolUse", "PostToolUse", "Bash", "exec_command", "apply_patch"},
	{"gemini", "BeforeTool", "AfterTool", "run_shell_command", "run_shell_command", "write_file"},
	{"qwen", "PreToolUse", "PostToolUse", "run_shell_command", "run_shell_command", "write_file"},
}

// eventStdin is an event's stdin, its arguments a file of n bytes: in the
// agents' own order (the tool named before them), or the arguments first
// (as Go's encoding/json orders keys); garble makes the tool's name no
// JSON, cut ends the input inside it.
func eventStdin(event, tool string, n int, argsFirst, garble, cut bool) string {
	args := fmt.Sprintf(`"tool_input":{"file_path":"/work/big.txt","content":%q}`, strings.Repeat("A", n))
	name := fmt.Sprintf(`"tool_name":%q`, tool)
	if garble {
		name = `"tool_name":` + tool
	}
	head := fmt.Sprintf(`"session_id":"attack","cwd":"/work","hook_event_name":%q`, event)
	s := "{" + head + "," + name + "," + args + `,"tool_use_id":"call_1"}`
	if argsFirst {
		s = "{" + args + "," + head + "," + name + `,"tool_use_id":"call_1"}`
	}
	if cut {
		s = s[:strings.Index(s, `"tool_name":`)+15]
	}
	return s
}

// TestAttackHugeOrGarbledCalls: `jig <agent> hook` (Claude Code, Codex, Gemini CLI, Qwen Code) for a call whose
// arguments are 5 MiB (a Write of a big file) or cannot be read. Before,
// both exited 4 with no answer, and Claude Code and Codex run a call whose
// PreToolUse hook exits other than 0 or 2: a tool switched off ran. Now a
// huge call of a tool switched off is refused, of one not switched off
// allowed silently (exit 0, nothing said, nothing written); an unreadable
// call (its tool's name not JSON, or the input cut short before it) is
// refused whatever its tool, one line on stderr; a huge event of another
// kind is still bad input (exit 4, one line). Gemini's reader never keeps
// the whole: it records a huge call, and takes a huge AfterTool.
func TestAttackHugeOrGarbledCalls(t *testing.T) {
	start := time.Now()
	const huge = 5 << 20
	var tl tally
	for _, a := range hookAgents {
		state := t.TempDir() + "/state"
		req := request.New(time.Now())
		req.Tools = map[string]bool{a.offSwitch: false}
		if _, err := request.Send(&status.Dir{Root: state}, "attack", req); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what, stdin string
			code        int
			answer      string // in stdout; "" nothing
			lines       int    // on stderr
		}{
			{"huge, switched off", eventStdin(a.preTool, a.off, huge, false, false, false), exit.OK, "tool " + a.offSwitch + " is switched off", 0},
			{"huge, not switched off", eventStdin(a.preTool, a.on, huge, false, false, false), exit.OK, "", 0},
			{"huge first, switched off", eventStdin(a.preTool, a.off, huge, true, false, false), exit.OK, "tool " + a.offSwitch + " is switched off", 0},
			{"the tool not JSON", eventStdin(a.preTool, a.on, 100, false, true, false), exit.OK, "cannot read this hook", 1},
			{"cut short", eventStdin(a.preTool, a.on, 100, false, false, true), exit.OK, "cannot read this hook", 1},
			{"huge first, the tool not JSON", eventStdin(a.preTool, a.on, huge, true, true, false), exit.OK, "cannot read this hook", 1},
			{"huge first, cut short", eventStdin(a.preTool, a.on, huge, true, false, true), exit.OK, "cannot read this hook", 1},
			{"huge, another event", eventStdin(a.postTool, a.on, huge, false, false, false), exit.BadInput, "", 1},
		} {
			if a.cmd == "gemini" && c.what == "huge, another event" {
				continue
			}
			r := runProc(t, jigProc(state, c.stdin, a.cmd, "hook"))
			lines := strings.Count(r.stderr, "\n")
			ok := r.code == c.code && lines == c.lines && (c.answer == "" && r.stdout == "" ||
				c.answer != "" && strings.Contains(r.stdout, "deny") && strings.Contains(r.stdout, c.answer))
			if !ok {
				t.Errorf("%s hook, %s: exit %d, stdout %q, stderr %q", a.cmd, c.what, r.code, r.stdout, r.stderr)
			}
			tl.add(r.code, ok)
		}
		if _, err := (&status.Dir{Root: state}).Read("attack"); err == nil && a.cmd != "gemini" {
			t.Errorf("%s hook: a call decided from its head wrote the status", a.cmd)
		}
	}
	hammer.Figure(t, tl.row("huge or garbled calls", "claude, codex, gemini, qwen hook: a PreToolUse of 5 MiB for a tool off and one on, the arguments before or after the tool; the tool not JSON or cut short, after 100 B or 5 MiB; a huge other event",
		"refused when off or unreadable, allowed silently when on, nothing written; another event exit 4"), start)
}
