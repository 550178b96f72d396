package claude

import (
	"fmt"
	"path/filepath"
	"time"

	"jig/agents"
	"jig/agents/peer"
	cct "jig/claude/transcript"
	"jig/hook"
	"jig/serve/conversation"
	"jig/status"
)

// Agent is Claude Code in jig's registry of agents, with its commands:
// `jig claude hook|sessions|show` (cmd/jig adds its statusline);
// `jig install claude` is package install's.
var Agent = peer.Agent{
	Agent: agents.Agent{ID: status.AgentClaude, Label: "Claude Code", Herdr: "claude"},
	Name:  "claude", Usage: "keep Claude Code sessions' status files (hooks, statusLine); read its transcripts",
	Hook: &peer.Hook{Run: runHook, Usage: "update a Claude Code session's status file from one hook event (JSON on stdin)",
		UsageText: "jig claude hook < event.json\n\n" +
			"Installed for every event by `jig install claude`. On PreToolUse it refuses a call of a\n" +
			"tool or skill switched off for the session (`jig request tool NAME off`).\n\n" +
			`example: echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/src"}' | jig claude hook`},
	StatusLine: func(call peer.Call, data []byte) (*status.Status, error) {
		if err := hook.Fits(data); err != nil {
			return nil, err
		}
		w, in, err := Open(call, data)
		if err != nil {
			return nil, err
		}
		return w.StatusLine(in)
	},
	Records: &peer.Records{Kind: "transcript", Says: "model, usage, cost, outputs, recent calls, tools",
		Example: "~/.claude/projects/-home-me-src/6d5df00b-a7f0-4f9c-8397-89b978df7afb.jsonl",
		List:    func(getenv func(string) string) ([]*cct.Info, error) { return cct.List(projects(getenv)) },
		Show: func(arg string, getenv func(string) string) (peer.Shown, error) {
			file, err := cct.Find(arg, projects(getenv))
			if err != nil {
				return nil, err
			}
			return cct.Show(file)
		}},
	Conversation: func(func(string) string, func() time.Time) conversation.Reader { return Conversation{} },
}

// projects is where Claude keeps its transcripts.
func projects(getenv func(string) string) string {
	return filepath.Join(AgentDir(getenv), "projects")
}

// runHook is one event of `jig claude hook`.
func runHook(c peer.Call) ([]byte, error) {
	dir, err := c.Dir() // none: the kit refuses every call, fail closed
	return (&Writer{Dir: dir, NoDir: err, Now: c.Now, Getenv: c.Getenv, Host: c.Host, PID: ClaudePID(c.Getenv)}).HookStdin(c.Stdin)
}

// Open reads Claude's JSON (a hook's, the statusLine's) and makes the
// session's writer.
func Open(c peer.Call, data []byte) (*Writer, *Input, error) {
	in, err := ParseInput(data)
	if err != nil {
		return nil, nil, status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err))
	}
	dir, err := c.Dir()
	if err != nil {
		return nil, nil, err
	}
	return &Writer{Dir: dir, Now: c.Now, Getenv: c.Getenv, Host: c.Host, PID: ClaudePID(c.Getenv)}, in, nil
}
