package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"

	"jig/configfile"
)

// RefreshInterval is how often (seconds) Claude re-runs jig's statusLine
// command when nothing else does: an idle session takes its requests and
// answers them within it.
const RefreshInterval = 2

// HookTimeout bounds one hook run (seconds); jig's takes milliseconds.
const HookTimeout = 10

// toolEvents take a matcher: jig's hooks match every tool.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true}

// Command is the command line of a jig subcommand ("hook", "statusline")
// as the settings hold it: bin is the jig to run, quoted when it needs to be.
func Command(bin, sub string) string {
	if strings.ContainsAny(bin, " \t'\"\\$`!*?[]{}()<>|&;#~") {
		bin = shellQuote(bin)
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

// The entries jig writes, in the order Claude's documentation gives their keys.
type (
	hookSpec struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	groupSpec struct {
		Matcher string     `json:"matcher,omitempty"`
		Hooks   []hookSpec `json:"hooks"`
	}
	statusLineSpec struct {
		Type            string `json:"type"`
		Command         string `json:"command"`
		RefreshInterval int    `json:"refreshInterval"`
	}
)

// settings is Claude's settings file as a syntax tree that keeps every
// byte of it (hujson): an edit changes only the entries it adds, removes or
// sets, laid out like their neighbours, so the user's key order, spacing
// and everything jig does not touch stay as they were, and removing what an
// edit added gives the same bytes back.
type settings struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
}

var errNotObject = errors.New("not a JSON object")

// ClaudeIgnoresNonJSON is why jig refuses to edit a settings file that is
// not plain JSON, rather than keeping its comments.
const ClaudeIgnoresNonJSON = "Claude Code ignores a settings.json that is not plain JSON, so none of its hooks would run: take it out and run again"

func parseSettings(data []byte) (*settings, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	// Claude Code 2.1.328 reads plain JSON and ignores a settings file with
	// a comment or a trailing comma whole (TestClaudeIgnoresCommentedSettings)
	if err := configfile.CheckJSON(data, ClaudeIgnoresNonJSON); err != nil {
		return nil, err
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, errNotObject
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errNotObject
	}
	s := &settings{root: v, unit: "  "}
	if len(root.Members) > 0 {
		if in, ok := lineIndent(root.Members[0].Name.BeforeExtra); ok && in != "" {
			s.unit = in
		}
	}
	if h := member(root, "hooks"); h != nil {
		if _, ok := h.Value.(*hujson.Object); !ok && !isNull(h) {
			return nil, errors.New("hooks: not a JSON object")
		}
	}
	return s, nil
}

func (s *settings) obj() *hujson.Object { return s.root.Value.(*hujson.Object) }

func (s *settings) bytes() []byte { return s.root.Pack() }

func isNull(v *hujson.Value) bool {
	lit, ok := v.Value.(hujson.Literal)
	return ok && lit.Kind() == 'n'
}

// lineIndent is the indentation of an entry that starts a line: what
// follows the last newline before it.
func lineIndent(before hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return "", false
	}
	return string(before[i+1:]), true
}

// index is the index of an object's member name, -1 when it has none.
func index(obj *hujson.Object, name string) int {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// member is an object's value for name, nil when it has none.
func member(obj *hujson.Object, name string) *hujson.Value {
	if i := index(obj, name); i >= 0 {
		return &obj.Members[i].Value
	}
	return nil
}

// indentOf is the indentation of the line a member starts on, "" for one
// that shares a line (or is not there).
func indentOf(obj *hujson.Object, name string) string {
	if i := index(obj, name); i >= 0 {
		in, _ := lineIndent(obj.Members[i].Name.BeforeExtra)
		return in
	}
	return ""
}

// decode reads a part of the file into v.
func decode(part *hujson.Value, v any) error {
	c := *part
	c.BeforeExtra, c.AfterExtra = nil, nil
	return json.Unmarshal(c.Pack(), v)
}

// layout is how a new entry of a container is laid out: before it (like its
// last sibling's, or on a line of its own one level in from outer), the
// indentation of its lines, and whether it shares the container's line.
func (s *settings) layout(last *hujson.Value, outer string) (before hujson.Extra, indent string, inline bool) {
	if last == nil {
		return hujson.Extra("\n" + outer + s.unit), outer + s.unit, false
	}
	if in, ok := lineIndent(last.BeforeExtra); ok {
		return append(hujson.Extra(nil), last.BeforeExtra...), in, false
	}
	return hujson.Extra(" "), outer, true
}

// value is v laid out at indent: on one line when inline, else over lines
// as the file indents them.
func (s *settings) value(v any, indent string, inline bool) hujson.ValueTrimmed {
	// a command's & < > stay as written, not \u0026: a wrapped command
	// given back is the user's own text
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !inline {
		enc.SetIndent(indent, s.unit)
	}
	enc.Encode(v)
	parsed, _ := hujson.Parse(bytes.TrimSuffix(b.Bytes(), []byte("\n"))) // jig's own JSON: it parses
	return parsed.Value
}

// emptied is the closing space of a container given its first entry: the
// closing bracket goes on a line of its own at outer.
func emptied(closing *hujson.Extra, outer string) {
	if len(bytes.TrimSpace(*closing)) == 0 {
		*closing = hujson.Extra("\n" + outer)
	}
}

// add appends name: v to obj, whose members are indented one level in from
// outer (the indentation of obj's own line).
func (s *settings) add(obj *hujson.Object, outer, name string, v any) *hujson.Value {
	var last *hujson.Value
	colon := hujson.Extra(" ")
	if n := len(obj.Members); n > 0 {
		last, colon = &obj.Members[n-1].Name, obj.Members[n-1].Value.BeforeExtra
	} else {
		emptied(&obj.AfterExtra, outer)
	}
	before, indent, inline := s.layout(last, outer)
	key, _ := json.Marshal(name)
	obj.Members = append(obj.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: before, Value: hujson.Literal(key)},
		Value: hujson.Value{BeforeExtra: append(hujson.Extra(nil), colon...), Value: s.value(v, indent, inline)},
	})
	return &obj.Members[len(obj.Members)-1].Value
}

// push appends v to arr, whose elements are indented one level in from outer.
func (s *settings) push(arr *hujson.Array, outer string, v any) {
	var last *hujson.Value
	if n := len(arr.Elements); n > 0 {
		last = &arr.Elements[n-1]
	} else {
		emptied(&arr.AfterExtra, outer)
	}
	before, indent, inline := s.layout(last, outer)
	arr.Elements = append(arr.Elements, hujson.Value{BeforeExtra: before, Value: s.value(v, indent, inline)})
}

// set replaces the value at v (a member whose line is indented by indent),
// keeping the space around it.
func (s *settings) set(v *hujson.Value, x any, indent string) {
	v.Value = s.value(x, indent, false)
}

// removeMember drops obj's member i, and removeElement arr's element i,
// with the space before it: the exact inverse of add and push.
func removeMember(obj *hujson.Object, i int) {
	obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
	if n := len(obj.Members); n == 0 {
		collapse(&obj.AfterExtra)
	} else if i == n {
		noTrailingComma(&obj.Members[n-1].Value, &obj.AfterExtra)
	}
}

func removeElement(arr *hujson.Array, i int) {
	arr.Elements = append(arr.Elements[:i], arr.Elements[i+1:]...)
	if n := len(arr.Elements); n == 0 {
		collapse(&arr.AfterExtra)
	} else if i == n {
		noTrailingComma(&arr.Elements[n-1], &arr.AfterExtra)
	}
}

// collapse empties the space of a container left empty: {} as it was before
// an add.
func collapse(closing *hujson.Extra) {
	if len(bytes.TrimSpace(*closing)) == 0 {
		*closing = nil
	}
}

// noTrailingComma keeps a new last entry's space before the closing bracket
// rather than before a comma (hujson writes a comma after a last value with
// space of its own).
func noTrailingComma(last *hujson.Value, closing *hujson.Extra) {
	if last.AfterExtra != nil {
		*closing = append(last.AfterExtra, *closing...)
		last.AfterExtra = nil
	}
}

// hooks is the settings' hooks object, made (at the end of the file) when
// create is set and there is none; nil otherwise.
func (s *settings) hooks(create bool) *hujson.Object {
	h := member(s.obj(), "hooks")
	if h == nil || isNull(h) {
		if !create {
			return nil
		}
		if h == nil {
			h = s.add(s.obj(), "", "hooks", struct{}{})
		} else {
			h.Value = &hujson.Object{}
		}
	}
	return h.Value.(*hujson.Object)
}

// groups is one event's list of hook groups, nil when it has none or it is
// not a list.
func groups(hooks *hujson.Object, event string) *hujson.Array {
	if hooks == nil {
		return nil
	}
	if v := member(hooks, event); v != nil {
		arr, _ := v.Value.(*hujson.Array)
		return arr
	}
	return nil
}

// group is what jig reads of a hook group.
type group struct {
	Matcher *string          `json:"matcher"`
	Hooks   []map[string]any `json:"hooks"`
}

// hasHook reports whether a group of the event holds exactly jig's hook,
// with a catch-all matcher where the event takes one.
func hasHook(gs *hujson.Array, want hookSpec, matcher bool) bool {
	if gs == nil {
		return false
	}
	for i := range gs.Elements {
		var g group
		if decode(&gs.Elements[i], &g) != nil || (matcher && (g.Matcher == nil || *g.Matcher != "*")) {
			continue
		}
		for _, h := range g.Hooks {
			if h["type"] == want.Type && h["command"] == want.Command && h["timeout"] == float64(want.Timeout) {
				return true
			}
		}
	}
	return false
}

// withoutJig drops jig's hook (of sub) from every group of the list, and
// the groups it leaves empty. It reports whether it dropped any.
func withoutJig(gs *hujson.Array, sub string) bool {
	removed := false
	for i := len(gs.Elements) - 1; i >= 0; i-- {
		g, ok := gs.Elements[i].Value.(*hujson.Object)
		if !ok {
			continue
		}
		hs := member(g, "hooks")
		if hs == nil {
			continue
		}
		list, ok := hs.Value.(*hujson.Array)
		if !ok {
			continue
		}
		had := len(list.Elements)
		for j := len(list.Elements) - 1; j >= 0; j-- {
			var h struct {
				Command string `json:"command"`
			}
			if decode(&list.Elements[j], &h) == nil && isJig(h.Command, sub) {
				removeElement(list, j)
				removed = true
			}
		}
		if had > 0 && len(list.Elements) == 0 {
			removeElement(gs, i)
		}
	}
	return removed
}

// Install merges jig's hooks (every event in Events) and its statusLine
// command into the settings file's content, leaving every other key, group
// and hook as it was, byte for byte. It reports whether anything changed;
// a second run changes nothing. A statusLine that is not jig's is wrapped
// (installStatusLine), and the notes say so.
func Install(data []byte, bin string) (out []byte, changed bool, notes []string, err error) {
	s, err := parseSettings(data)
	if err != nil {
		return nil, false, nil, err
	}
	want := hookSpec{Type: "command", Command: Command(bin, "hook"), Timeout: HookTimeout}
	for _, ev := range Events {
		if hasHook(groups(s.hooks(false), ev), want, toolEvents[ev]) {
			continue
		}
		hooks := s.hooks(true)
		gs := groups(hooks, ev)
		switch v := member(hooks, ev); {
		case gs != nil:
			withoutJig(gs, "hook") // an older jig's entry goes
		case v == nil:
			gs = s.add(hooks, indentOf(s.obj(), "hooks"), ev, []any{}).Value.(*hujson.Array)
		case isNull(v):
			gs = &hujson.Array{}
			v.Value = gs
		default:
			return nil, false, nil, fmt.Errorf("hooks.%s: not a list", ev)
		}
		g := groupSpec{Hooks: []hookSpec{want}}
		if toolEvents[ev] {
			g.Matcher = "*"
		}
		s.push(gs, indentOf(hooks, ev), g)
		changed = true
	}
	lineChanged, err := s.installStatusLine(bin, &notes)
	if err != nil {
		return nil, false, nil, err
	}
	if lineChanged {
		changed = true
	}
	if !changed {
		return data, false, notes, nil
	}
	return s.bytes(), true, notes, nil
}

// installStatusLine sets the statusLine to jig's command, or keeps it when it
// is jig's already. A statusLine that runs another command (ccstatusline,
// claude-powerline, a script) is wrapped: jig's command runs it with
// --then and prints its line, so the user keeps theirs and jig gets
// Claude's JSON; every other key of it (refreshInterval, padding) stays as
// the user had it, so Uninstall gives it back as it was. It reports
// whether it changed anything; a statusLine object that names no command
// is refused (nothing to keep, nothing to wrap).
func (s *settings) installStatusLine(bin string, notes *[]string) (bool, error) {
	line := statusLineSpec{Type: "command", Command: Command(bin, "statusline"), RefreshInterval: RefreshInterval}
	cur := member(s.obj(), "statusLine")
	if cur == nil {
		s.add(s.obj(), "", "statusLine", line)
		return true, nil
	}
	indent := indentOf(s.obj(), "statusLine")
	obj, ok := cur.Value.(*hujson.Object)
	if !ok {
		s.set(cur, line, indent) // null or no settings at all
		return true, nil
	}
	var said struct {
		Command         string   `json:"command"`
		RefreshInterval *float64 `json:"refreshInterval"`
	}
	decode(cur, &said)
	if member(obj, "command") == nil || said.Command == "" {
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
		s.set(member(obj, "command"), want, indent)
		return true, nil
	}
	changed := false
	if said.Command != line.Command {
		s.set(member(obj, "command"), line.Command, indent)
		changed = true
	}
	if said.RefreshInterval == nil || *said.RefreshInterval != RefreshInterval {
		if v := member(obj, "refreshInterval"); v != nil {
			s.set(v, RefreshInterval, indent)
		} else {
			s.add(obj, indent, "refreshInterval", RefreshInterval)
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
	s, err := parseSettings(data)
	if err != nil {
		return nil, false, err
	}
	if hooks := s.hooks(false); hooks != nil {
		for i := len(hooks.Members) - 1; i >= 0; i-- {
			gs, ok := hooks.Members[i].Value.Value.(*hujson.Array)
			if !ok || !withoutJig(gs, "hook") {
				continue // not Claude's shape, so no hook of jig's either: left as it is
			}
			changed = true
			if len(gs.Elements) == 0 {
				removeMember(hooks, i)
			}
		}
		if changed && len(hooks.Members) == 0 {
			removeMember(s.obj(), index(s.obj(), "hooks"))
		}
	}
	if cur := member(s.obj(), "statusLine"); cur != nil {
		var said struct {
			Command string `json:"command"`
		}
		if decode(cur, &said) == nil && isJig(said.Command, "statusline") {
			if theirs, ok := unwrap(said.Command); ok {
				// the user's own command comes back, the rest of it untouched
				s.set(member(cur.Value.(*hujson.Object), "command"), theirs, indentOf(s.obj(), "statusLine"))
			} else {
				removeMember(s.obj(), index(s.obj(), "statusLine"))
			}
			changed = true
		}
	}
	if !changed {
		return data, false, nil
	}
	return s.bytes(), true, nil
}
