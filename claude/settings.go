package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// RefreshInterval is how often (seconds) Claude re-runs jig's statusLine
// command when nothing else does: an idle session takes its requests and
// answers them within it.
const RefreshInterval = 2

// HookTimeout bounds one hook run (seconds); jig's takes milliseconds.
const HookTimeout = 10

// toolEvents take a matcher: jig's hooks match every tool.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true}

// Command is the command line of a jig subcommand ("hook", "statusline")
// as the settings hold it: bin is the jig to run, quoted when it needs to be.
func Command(bin, sub string) string {
	if strings.ContainsAny(bin, " \t'\"\\$`!*?[]{}()<>|&;#~") {
		bin = "'" + strings.ReplaceAll(bin, "'", `'\''`) + "'"
	}
	return bin + " claude " + sub
}

// isJig reports whether a command line runs jig's subcommand sub: a program
// named jig (any path, quoted or not) with the arguments "claude sub".
func isJig(cmd, sub string) bool {
	cmd = strings.TrimSpace(cmd)
	var prog, rest string
	if strings.HasPrefix(cmd, "'") {
		end := strings.LastIndex(cmd, "' ")
		if end <= 0 {
			return false
		}
		prog, rest = strings.ReplaceAll(cmd[1:end], `'\''`, "'"), cmd[end+2:]
	} else {
		var ok bool
		if prog, rest, ok = strings.Cut(cmd, " "); !ok {
			return false
		}
	}
	args := strings.Fields(rest)
	return filepath.Base(prog) == "jig" && len(args) >= 2 && args[0] == "claude" && args[1] == sub
}

// settings is Claude's settings file with the keys jig touches decoded and
// every other key kept as it was.
type settings struct {
	keys  map[string]json.RawMessage
	hooks map[string]json.RawMessage
}

type hookGroup struct {
	Matcher *string          `json:"matcher,omitempty"`
	Hooks   []map[string]any `json:"hooks"`
	rest    map[string]json.RawMessage
	changed bool // Hooks differ from the file's; else the file's bytes stay
}

func parseSettings(data []byte) (*settings, error) {
	s := &settings{keys: map[string]json.RawMessage{}, hooks: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(data, &s.keys); err != nil || s.keys == nil {
		return nil, errors.New("not a JSON object")
	}
	if raw, ok := s.keys["hooks"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &s.hooks); err != nil {
			return nil, errors.New("hooks: not a JSON object")
		}
	}
	return s, nil
}

// groups decodes one event's hook groups, keeping unknown fields.
func (s *settings) groups(event string) ([]hookGroup, error) {
	raw, ok := s.hooks[event]
	if !ok {
		return nil, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("hooks.%s: not a list", event)
	}
	out := make([]hookGroup, 0, len(list))
	for _, g := range list {
		hg := hookGroup{rest: g}
		if m, ok := g["matcher"]; ok {
			var v string
			if json.Unmarshal(m, &v) == nil {
				hg.Matcher = &v
			}
		}
		if h, ok := g["hooks"]; ok {
			if err := json.Unmarshal(h, &hg.Hooks); err != nil {
				return nil, fmt.Errorf("hooks.%s: a group's hooks are not a list", event)
			}
		}
		out = append(out, hg)
	}
	return out, nil
}

func (s *settings) setGroups(event string, gs []hookGroup) {
	if len(gs) == 0 {
		delete(s.hooks, event)
		return
	}
	list := make([]map[string]json.RawMessage, 0, len(gs))
	for _, g := range gs {
		m := map[string]json.RawMessage{}
		for k, v := range g.rest {
			m[k] = v
		}
		if g.changed {
			m["hooks"], _ = json.Marshal(append([]map[string]any{}, g.Hooks...)) // [], never null
		}
		list = append(list, m)
	}
	s.hooks[event], _ = json.Marshal(list)
}

func (s *settings) encode() []byte {
	if len(s.hooks) == 0 {
		delete(s.keys, "hooks")
	} else {
		s.keys["hooks"], _ = json.Marshal(s.hooks)
	}
	out, _ := json.MarshalIndent(s.keys, "", "  ")
	return append(out, '\n')
}

// withoutJig drops jig's hook (of sub) from every group, and groups left empty.
func withoutJig(gs []hookGroup, sub string) ([]hookGroup, bool) {
	removed := false
	var out []hookGroup
	for _, g := range gs {
		var kept []map[string]any
		for _, h := range g.Hooks {
			if c, _ := h["command"].(string); isJig(c, sub) {
				removed = true
				continue
			}
			kept = append(kept, h)
		}
		if len(kept) == 0 && len(g.Hooks) > 0 {
			continue
		}
		if len(kept) < len(g.Hooks) {
			g.Hooks, g.changed = kept, true
		}
		out = append(out, g)
	}
	return out, removed
}

// Install merges jig's hooks (every event in Events) and its statusLine
// command into the settings file's content, leaving every other key, group
// and hook as it was. It reports whether anything changed; a second run
// changes nothing. A statusLine that is not jig's is left alone and named
// in the notes.
func Install(data []byte, bin string) (out []byte, changed bool, notes []string, err error) {
	s, err := parseSettings(data)
	if err != nil {
		return nil, false, nil, err
	}
	hookCmd := Command(bin, "hook")
	for _, ev := range Events {
		gs, err := s.groups(ev)
		if err != nil {
			return nil, false, nil, err
		}
		want := map[string]any{"type": "command", "command": hookCmd, "timeout": float64(HookTimeout)}
		if hasHook(gs, want, toolEvents[ev]) {
			continue
		}
		gs, _ = withoutJig(gs, "hook") // an older jig's entry goes
		g := hookGroup{Hooks: []map[string]any{want}, rest: map[string]json.RawMessage{}, changed: true}
		if toolEvents[ev] {
			g.rest["matcher"] = json.RawMessage(`"*"`)
		}
		s.setGroups(ev, append(gs, g))
		changed = true
	}
	line := map[string]any{"type": "command", "command": Command(bin, "statusline"), "refreshInterval": float64(RefreshInterval)}
	var cur map[string]any
	if raw, ok := s.keys["statusLine"]; ok {
		json.Unmarshal(raw, &cur)
	}
	switch c, _ := cur["command"].(string); {
	case cur == nil:
		s.keys["statusLine"], _ = json.Marshal(line)
		changed = true
	case !isJig(c, "statusline"):
		notes = append(notes, "statusLine runs another command; left as it is (set its command to "+strconv.Quote(Command(bin, "statusline"))+" to use jig's)")
	case c != line["command"] || cur["refreshInterval"] != line["refreshInterval"]:
		for k, v := range line {
			cur[k] = v // padding and the like stay
		}
		s.keys["statusLine"], _ = json.Marshal(cur)
		changed = true
	}
	if !changed {
		return data, false, notes, nil
	}
	return s.encode(), true, notes, nil
}

// hasHook reports whether a group holds exactly jig's hook, with a
// catch-all matcher where the event takes one.
func hasHook(gs []hookGroup, want map[string]any, matcher bool) bool {
	for _, g := range gs {
		if matcher && (g.Matcher == nil || *g.Matcher != "*") {
			continue
		}
		for _, h := range g.Hooks {
			if h["type"] == want["type"] && h["command"] == want["command"] && h["timeout"] == want["timeout"] {
				return true
			}
		}
	}
	return false
}

// Uninstall removes exactly jig's hooks and statusLine from the settings
// file's content. It reports whether anything changed.
func Uninstall(data []byte) (out []byte, changed bool, err error) {
	s, err := parseSettings(data)
	if err != nil {
		return nil, false, err
	}
	for ev := range s.hooks {
		gs, err := s.groups(ev)
		if err != nil {
			continue // not Claude's shape, so no hook of jig's either: left as it is
		}
		gs, removed := withoutJig(gs, "hook")
		if removed {
			s.setGroups(ev, gs)
			changed = true
		}
	}
	if raw, ok := s.keys["statusLine"]; ok {
		var cur map[string]any
		json.Unmarshal(raw, &cur)
		if c, _ := cur["command"].(string); isJig(c, "statusline") {
			delete(s.keys, "statusLine")
			changed = true
		}
	}
	if !changed {
		return data, false, nil
	}
	return s.encode(), true, nil
}
