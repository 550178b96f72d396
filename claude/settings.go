package claude

import (
	"bytes"
	"errors"

	"github.com/tailscale/hujson"

	"jig/configfile"
	"jig/install/hookjson"
)

// RefreshInterval is how often (seconds) Claude re-runs jig's statusLine
// command when nothing else does: an idle session takes its requests and
// answers them within it.
const RefreshInterval = 2

// HookTimeout bounds one hook run (seconds); jig's takes milliseconds.
const HookTimeout = 10

// hooks is jig's hook in Claude's settings: every event in Events, the
// tool events matching every tool.
var hooks = hookjson.Hooks{Agent: "claude", Events: Events, Timeout: HookTimeout,
	ToolEvents: map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true}}

// Command is the command line of a jig subcommand ("hook", "statusline")
// as the settings hold it: bin is the jig to run, quoted when it needs to be.
func Command(bin, sub string) string { return hookjson.Command(bin, "claude", sub) }

// isJig reports whether a command line runs jig's subcommand sub: a program
// named jig (any path, quoted or not) with the arguments "claude sub".
func isJig(cmd, sub string) bool { return hookjson.IsJig(cmd, "claude", sub) }

// shellQuote is s as one /bin/sh word.
func shellQuote(s string) string { return hookjson.ShellQuote(s) }

// statusLineSpec is the statusLine jig writes, in the order Claude's
// documentation gives its keys.
type statusLineSpec struct {
	Type            string `json:"type"`
	Command         string `json:"command"`
	RefreshInterval int    `json:"refreshInterval"`
}

// ClaudeIgnoresNonJSON is why jig refuses to edit a settings file that is
// not plain JSON, rather than keeping its comments.
const ClaudeIgnoresNonJSON = "Claude Code ignores a settings.json that is not plain JSON, so none of its hooks would run: take it out and run again"

// checkJSON refuses what Claude would not read (an empty file is {}).
func checkJSON(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return configfile.CheckJSON(data, ClaudeIgnoresNonJSON)
}

// Install merges jig's hooks (every event in Events) and its statusLine
// command into the settings file's content, leaving every other key, group
// and hook as it was, byte for byte (hookjson). It reports whether anything
// changed; a second run changes nothing. A statusLine that is not jig's is
// wrapped (installStatusLine), and the notes say so.
func Install(data []byte, bin string) (out []byte, changed bool, notes []string, err error) {
	// Claude Code 2.1.328 reads plain JSON and ignores a settings file with
	// a comment or a trailing comma whole (TestClaudeIgnoresCommentedSettings)
	if err := checkJSON(data); err != nil {
		return nil, false, nil, err
	}
	out, changed, err = hookjson.Edit(data, false, func(f *hookjson.File) (bool, error) {
		hooked, err := f.Install(bin, hooks)
		if err != nil {
			return false, err
		}
		lined, err := installStatusLine(f, bin, &notes)
		return hooked || lined, err
	})
	return out, changed, notes, err
}

// installStatusLine sets the statusLine to jig's command, or keeps it when it
// is jig's already. A statusLine that runs another command (ccstatusline,
// claude-powerline, a script) is wrapped: jig's command runs it with
// --then and prints its line, so the user keeps theirs and jig gets
// Claude's JSON; every other key of it (refreshInterval, padding) stays as
// the user had it, so Uninstall gives it back as it was. It reports
// whether it changed anything; a statusLine object that names no command
// is refused (nothing to keep, nothing to wrap).
func installStatusLine(s *hookjson.File, bin string, notes *[]string) (bool, error) {
	line := statusLineSpec{Type: "command", Command: Command(bin, "statusline"), RefreshInterval: RefreshInterval}
	cur := hookjson.Member(s.Obj(), "statusLine")
	if cur == nil {
		s.Add(s.Obj(), "", "statusLine", line)
		return true, nil
	}
	indent := hookjson.IndentOf(s.Obj(), "statusLine")
	obj, ok := cur.Value.(*hujson.Object)
	if !ok {
		s.Set(cur, line, indent) // null or no settings at all
		return true, nil
	}
	var said struct {
		Command         string   `json:"command"`
		RefreshInterval *float64 `json:"refreshInterval"`
	}
	hookjson.Decode(cur, &said)
	if hookjson.Member(obj, "command") == nil || said.Command == "" {
		return false, errors.New("statusLine: an object with no command: give it one, or remove it")
	}
	theirs, isWrapped := unwrap(said.Command)
	if !isJig(said.Command, "statusline") {
		theirs, isWrapped = said.Command, true
		*notes = append(*notes, "statusLine runs your own command: jig runs it (--then) and prints its line; jig install claude --uninstall puts it back")
	}
	if isWrapped {
		want := wrapped(bin, theirs)
		if said.Command == want {
			return false, nil
		}
		s.Set(hookjson.Member(obj, "command"), want, indent)
		return true, nil
	}
	changed := false
	if said.Command != line.Command {
		s.Set(hookjson.Member(obj, "command"), line.Command, indent)
		changed = true
	}
	if said.RefreshInterval == nil || *said.RefreshInterval != RefreshInterval {
		if v := hookjson.Member(obj, "refreshInterval"); v != nil {
			s.Set(v, RefreshInterval, indent)
		} else {
			s.Add(obj, indent, "refreshInterval", RefreshInterval)
		}
		changed = true
	}
	return changed, nil
}

// Uninstall removes exactly jig's hooks and statusLine from the settings
// file's content, and what held only them, and puts back the user's own
// statusLine command jig wrapped: after Install it gives the file's bytes
// back. It reports whether anything changed.
func Uninstall(data []byte) (out []byte, changed bool, err error) {
	if err := checkJSON(data); err != nil {
		return nil, false, err
	}
	return hookjson.Edit(data, false, func(s *hookjson.File) (bool, error) {
		changed := s.Uninstall("claude")
		cur := hookjson.Member(s.Obj(), "statusLine")
		if cur == nil {
			return changed, nil
		}
		var said struct {
			Command string `json:"command"`
		}
		if hookjson.Decode(cur, &said) == nil && isJig(said.Command, "statusline") {
			if theirs, ok := unwrap(said.Command); ok {
				// the user's own command comes back, the rest of it untouched
				s.Set(hookjson.Member(cur.Value.(*hujson.Object), "command"), theirs, hookjson.IndentOf(s.Obj(), "statusLine"))
			} else {
				hookjson.RemoveMember(s.Obj(), hookjson.Index(s.Obj(), "statusLine"))
			}
			changed = true
		}
		return changed, nil
	})
}
