package claude

import (
	"errors"

	"github.com/tailscale/hujson"

	"jig/settingsjson"
)

// RefreshInterval is how often (seconds) Claude re-runs jig's statusLine
// command when nothing else does: an idle session takes its requests and
// answers them within it.
const RefreshInterval = 2

// HookTimeout bounds one hook run (seconds); jig's takes milliseconds.
const HookTimeout = 10

// dialect is how Claude Code reads its settings.json: plain JSON.
var dialect = settingsjson.Dialect{Agent: "Claude Code"}

// toolEvents take a matcher: jig's hooks match every tool.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true}

// Command is the command line of a jig subcommand ("hook", "statusline")
// as the settings hold it: bin is the jig to run, quoted when it needs to be.
func Command(bin, sub string) string { return settingsjson.Command(bin, "claude", sub) }

// isJig reports whether a command line runs jig's subcommand sub: a program
// named jig (any path, quoted or not) with the arguments "claude sub".
func isJig(cmd, sub string) bool { return settingsjson.IsJig(cmd, "claude", sub) }

// isJigHook reports whether a command line is jig's hook command.
func isJigHook(cmd string) bool { return isJig(cmd, "hook") }

// statusLineSpec is the statusLine jig writes, in the order Claude's
// documentation gives its keys.
type statusLineSpec struct {
	Type            string `json:"type"`
	Command         string `json:"command"`
	RefreshInterval int    `json:"refreshInterval"`
}

// hookGroup is jig's group for an event: its hook, matching every tool
// where the event takes a matcher.
func hookGroup(bin string) func(event string) settingsjson.Group {
	return func(ev string) settingsjson.Group {
		g := settingsjson.Group{Hooks: []settingsjson.Hook{{Type: "command", Command: Command(bin, "hook"), Timeout: HookTimeout}}}
		if toolEvents[ev] {
			g.Matcher = "*"
		}
		return g
	}
}

// Install merges jig's hooks (every event in Events) and its statusLine
// command into the settings file's content, leaving every other key, group
// and hook as it was, byte for byte. It reports whether anything changed;
// a second run changes nothing. A statusLine that is not jig's is wrapped
// (installStatusLine), and the notes say so.
func Install(data []byte, bin string) (out []byte, changed bool, notes []string, err error) {
	s, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, nil, err
	}
	if changed, err = s.InstallHooks(Events, hookGroup(bin), isJigHook); err != nil {
		return nil, false, nil, err
	}
	lineChanged, err := installStatusLine(s, bin, &notes)
	if err != nil {
		return nil, false, nil, err
	}
	if lineChanged {
		changed = true
	}
	if !changed {
		return data, false, notes, nil
	}
	return s.Bytes(), true, notes, nil
}

// installStatusLine sets the statusLine to jig's command, or keeps it when it
// is jig's already. A statusLine that runs another command (ccstatusline,
// claude-powerline, a script) is wrapped: jig's command runs it with
// --then and prints its line, so the user keeps theirs and jig gets
// Claude's JSON; every other key of it (refreshInterval, padding) stays as
// the user had it, so Uninstall gives it back as it was. It reports
// whether it changed anything; a statusLine object that names no command
// is refused (nothing to keep, nothing to wrap).
func installStatusLine(s *settingsjson.File, bin string, notes *[]string) (bool, error) {
	line := statusLineSpec{Type: "command", Command: Command(bin, "statusline"), RefreshInterval: RefreshInterval}
	cur := settingsjson.Member(s.Root(), "statusLine")
	if cur == nil {
		s.Add(s.Root(), "", "statusLine", line)
		return true, nil
	}
	indent := settingsjson.IndentOf(s.Root(), "statusLine")
	obj, ok := cur.Value.(*hujson.Object)
	if !ok {
		s.Set(cur, line, indent) // null or no settings at all
		return true, nil
	}
	var said struct {
		Command         string   `json:"command"`
		RefreshInterval *float64 `json:"refreshInterval"`
	}
	settingsjson.Decode(cur, &said)
	if settingsjson.Member(obj, "command") == nil || said.Command == "" {
		return false, errors.New("statusLine: an object with no command: give it one, or remove it")
	}
	theirs, refreshed, isWrapped := unwrap(said.Command)
	if !isJig(said.Command, "statusline") {
		theirs, isWrapped = said.Command, true
		*notes = append(*notes, "statusLine runs your own command: jig runs it (--then) and prints its line; jig install claude --uninstall puts it back")
	}
	if isWrapped {
		return wrapStatusLine(s, obj, indent, said.Command, wrapped(bin, theirs, refreshed || said.RefreshInterval == nil)), nil
	}
	changed := false
	if said.Command != line.Command {
		s.Set(settingsjson.Member(obj, "command"), line.Command, indent)
		changed = true
	}
	if said.RefreshInterval == nil || *said.RefreshInterval != RefreshInterval {
		if v := settingsjson.Member(obj, "refreshInterval"); v != nil {
			s.Set(v, RefreshInterval, indent)
		} else {
			s.Add(obj, indent, "refreshInterval", RefreshInterval)
		}
		changed = true
	}
	return changed, nil
}

// wrapStatusLine sets the wrapping command want; when it says jig adds
// the refreshInterval (the user's line had none), it adds jig's own: a
// request to an idle Claude is taken when Claude runs the statusLine, and
// without a refresh Claude runs it only when something changes.
func wrapStatusLine(s *settingsjson.File, obj *hujson.Object, indent, cur, want string) bool {
	_, refreshed, _ := unwrap(want)
	changed := false
	if refreshed && settingsjson.Member(obj, "refreshInterval") == nil {
		s.Add(obj, indent, "refreshInterval", RefreshInterval)
		changed = true
	}
	if cur != want {
		s.Set(settingsjson.Member(obj, "command"), want, indent)
		changed = true
	}
	return changed
}

// Uninstall removes exactly jig's hooks and statusLine from the settings
// file's content, and what held only them, and puts back the user's own
// statusLine command jig wrapped: after Install it gives the file's bytes
// back. It reports whether anything changed.
func Uninstall(data []byte) (out []byte, changed bool, err error) {
	s, err := settingsjson.Parse(data, dialect)
	if err != nil {
		return nil, false, err
	}
	changed = s.UninstallHooks(isJigHook)
	if cur := settingsjson.Member(s.Root(), "statusLine"); cur != nil {
		var said struct {
			Command string `json:"command"`
		}
		if settingsjson.Decode(cur, &said) == nil && isJig(said.Command, "statusline") {
			if theirs, refreshed, ok := unwrap(said.Command); ok {
				// the user's own command comes back, the rest of it untouched
				obj := cur.Value.(*hujson.Object)
				s.Set(settingsjson.Member(obj, "command"), theirs, settingsjson.IndentOf(s.Root(), "statusLine"))
				if i := settingsjson.Index(obj, "refreshInterval"); refreshed && i >= 0 {
					settingsjson.RemoveMember(obj, i) // the refresh jig added
				}
			} else {
				settingsjson.RemoveMember(s.Root(), settingsjson.Index(s.Root(), "statusLine"))
			}
			changed = true
		}
	}
	if !changed {
		return data, false, nil
	}
	return s.Bytes(), true, nil
}
