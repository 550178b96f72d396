// Package hookjson edits the settings file of an agent whose hooks have
// Claude Code's shape (Claude Code, Qwen Code): a "hooks" object of event
// name → list of groups {matcher?, hooks: [{type, command, timeout}]}. The
// file is a syntax tree that keeps every byte of it (hujson): an edit
// changes only the entries it adds, removes or sets, laid out like their
// neighbours, so the user's key order, spacing and everything jig does not
// touch stay as they were, and removing what an edit added gives the same
// bytes back.
package hookjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// Hooks is the one hook jig installs for every event of an agent: `jig
// AGENT hook`, run by its absolute path.
type Hooks struct {
	Agent      string          // the command group: "claude", "qwen"
	Events     []string        // every event jig's hook runs for
	ToolEvents map[string]bool // events that take a matcher: jig's matches every tool ("*")
	Timeout    int             // one run's bound, in the agent's unit (seconds for both)
}

// Command is the command line of a jig subcommand of agent ("hook",
// "statusline") as the settings hold it: bin is the jig to run, quoted
// when it needs to be.
func Command(bin, agent, sub string) string {
	if strings.ContainsAny(bin, " \t'\"\\$`!*?[]{}()<>|&;#~") {
		bin = ShellQuote(bin)
	}
	return bin + " " + agent + " " + sub
}

// ShellQuote is s as one /bin/sh word.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// IsJig reports whether a command line runs jig's subcommand sub of agent:
// a program named jig (any path, quoted or not) with the arguments
// "agent sub".
func IsJig(cmd, agent, sub string) bool {
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
	return filepath.Base(prog) == "jig" && len(args) >= 2 && args[0] == agent && args[1] == sub
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
)

// File is a settings file as a syntax tree that keeps every byte of it.
type File struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
}

var errNotObject = errors.New("not a JSON object")

// Parse reads a settings file's content (empty is {}). comments: the agent
// reads JSON with comments (Qwen Code strips them), which are kept; else
// only plain JSON (Claude Code ignores a file with a comment whole). A
// trailing comma is refused either way (JSON.parse fails on it, and Qwen
// then resets its settings to empty), as is a file whose hooks are not an
// object.
func Parse(data []byte, comments bool) (*File, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	if !comments && !json.Valid(data) {
		return nil, errNotObject
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, errNotObject
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errNotObject
	}
	if trailingComma(v.Value) {
		return nil, errors.New("a trailing comma: not JSON")
	}
	s := &File{root: v, unit: "  "}
	if len(root.Members) > 0 {
		if in, ok := lineIndent(root.Members[0].Name.BeforeExtra); ok && in != "" {
			s.unit = in
		}
	}
	if h := Member(root, "hooks"); h != nil {
		if _, ok := h.Value.(*hujson.Object); !ok && !isNull(h) {
			return nil, errors.New("hooks: not a JSON object")
		}
	}
	return s, nil
}

// trailingComma reports whether an object or list in v ends with a comma
// (hujson keeps the space before it after the last value: AfterExtra).
func trailingComma(v hujson.ValueTrimmed) bool {
	var last []*hujson.Value
	switch c := v.(type) {
	case *hujson.Object:
		for i := range c.Members {
			last = append(last, &c.Members[i].Value)
		}
	case *hujson.Array:
		for i := range c.Elements {
			last = append(last, &c.Elements[i])
		}
	}
	for i, e := range last {
		if i == len(last)-1 && e.AfterExtra != nil || trailingComma(e.Value) {
			return true
		}
	}
	return false
}

// Obj is the file's top object.
func (s *File) Obj() *hujson.Object { return s.root.Value.(*hujson.Object) }

// Bytes is the file as it stands.
func (s *File) Bytes() []byte { return s.root.Pack() }

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

// Index is the index of an object's member name, -1 when it has none.
func Index(obj *hujson.Object, name string) int {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// Member is an object's value for name, nil when it has none.
func Member(obj *hujson.Object, name string) *hujson.Value {
	if i := Index(obj, name); i >= 0 {
		return &obj.Members[i].Value
	}
	return nil
}

// IndentOf is the indentation of the line a member starts on, "" for one
// that shares a line (or is not there).
func IndentOf(obj *hujson.Object, name string) string {
	if i := Index(obj, name); i >= 0 {
		in, _ := lineIndent(obj.Members[i].Name.BeforeExtra)
		return in
	}
	return ""
}

// Decode reads a part of the file into v, its comments aside.
func Decode(part *hujson.Value, v any) error {
	c := part.Clone()
	c.BeforeExtra, c.AfterExtra = nil, nil
	c.Standardize()
	return json.Unmarshal(c.Pack(), v)
}

// layout is how a new entry of a container is laid out: before it (like its
// last sibling's, or on a line of its own one level in from outer), the
// indentation of its lines, and whether it shares the container's line.
func (s *File) layout(last *hujson.Value, outer string) (before hujson.Extra, indent string, inline bool) {
	if last == nil {
		return hujson.Extra("\n" + outer + s.unit), outer + s.unit, false
	}
	if in, ok := lineIndent(last.BeforeExtra); ok {
		if bytes.ContainsRune(last.BeforeExtra, '/') {
			return hujson.Extra("\n" + in), in, false // the sibling's comment is the user's, not copied
		}
		return append(hujson.Extra(nil), last.BeforeExtra...), in, false
	}
	return hujson.Extra(" "), outer, true
}

// value is v laid out at indent: on one line when inline, else over lines
// as the file indents them.
func (s *File) value(v any, indent string, inline bool) hujson.ValueTrimmed {
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

// Add appends name: v to obj, whose members are indented one level in from
// outer (the indentation of obj's own line).
func (s *File) Add(obj *hujson.Object, outer, name string, v any) *hujson.Value {
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
func (s *File) push(arr *hujson.Array, outer string, v any) {
	var last *hujson.Value
	if n := len(arr.Elements); n > 0 {
		last = &arr.Elements[n-1]
	} else {
		emptied(&arr.AfterExtra, outer)
	}
	before, indent, inline := s.layout(last, outer)
	arr.Elements = append(arr.Elements, hujson.Value{BeforeExtra: before, Value: s.value(v, indent, inline)})
}

// Set replaces the value at v (a member whose line is indented by indent),
// keeping the space around it.
func (s *File) Set(v *hujson.Value, x any, indent string) {
	v.Value = s.value(x, indent, false)
}

// RemoveMember drops obj's member i, and removeElement arr's element i,
// with the space before it: the exact inverse of Add and push.
func RemoveMember(obj *hujson.Object, i int) {
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
func (s *File) hooks(create bool) *hujson.Object {
	h := Member(s.Obj(), "hooks")
	if h == nil || isNull(h) {
		if !create {
			return nil
		}
		if h == nil {
			h = s.Add(s.Obj(), "", "hooks", struct{}{})
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
	if v := Member(hooks, event); v != nil {
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
		if Decode(&gs.Elements[i], &g) != nil || (matcher && (g.Matcher == nil || *g.Matcher != "*")) {
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

// withoutJig drops jig's hook (of agent's sub) from every group of the
// list, and the groups it leaves empty. It reports whether it dropped any.
func withoutJig(gs *hujson.Array, agent, sub string) bool {
	removed := false
	for i := len(gs.Elements) - 1; i >= 0; i-- {
		g, ok := gs.Elements[i].Value.(*hujson.Object)
		if !ok {
			continue
		}
		hs := Member(g, "hooks")
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
			if Decode(&list.Elements[j], &h) == nil && IsJig(h.Command, agent, sub) {
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

// Install merges jig's hook into every event of h, leaving every other
// key, group and hook as it was. An older jig's entry (another path) is
// replaced. It reports whether it changed anything: a second run does not.
func (s *File) Install(bin string, h Hooks) (changed bool, err error) {
	want := hookSpec{Type: "command", Command: Command(bin, h.Agent, "hook"), Timeout: h.Timeout}
	for _, ev := range h.Events {
		if hasHook(groups(s.hooks(false), ev), want, h.ToolEvents[ev]) {
			continue
		}
		hooks := s.hooks(true)
		gs := groups(hooks, ev)
		switch v := Member(hooks, ev); {
		case gs != nil:
			withoutJig(gs, h.Agent, "hook") // an older jig's entry goes
		case v == nil:
			gs = s.Add(hooks, IndentOf(s.Obj(), "hooks"), ev, []any{}).Value.(*hujson.Array)
		case isNull(v):
			gs = &hujson.Array{}
			v.Value = gs
		default:
			return false, fmt.Errorf("hooks.%s: not a list", ev)
		}
		g := groupSpec{Hooks: []hookSpec{want}}
		if h.ToolEvents[ev] {
			g.Matcher = "*"
		}
		s.push(gs, IndentOf(hooks, ev), g)
		changed = true
	}
	return changed, nil
}

// Uninstall removes exactly jig's hooks of agent, and what held only them.
// It reports whether it changed anything.
func (s *File) Uninstall(agent string) (changed bool) {
	hooks := s.hooks(false)
	if hooks == nil {
		return false
	}
	for i := len(hooks.Members) - 1; i >= 0; i-- {
		gs, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok || !withoutJig(gs, agent, "hook") {
			continue // not the hooks' shape, so no hook of jig's either: left as it is
		}
		changed = true
		if len(gs.Elements) == 0 {
			RemoveMember(hooks, i)
		}
	}
	if changed && len(hooks.Members) == 0 {
		RemoveMember(s.Obj(), Index(s.Obj(), "hooks"))
	}
	return changed
}

// Edit parses data (Parse), applies change and gives back the bytes: data
// itself when nothing changed.
func Edit(data []byte, comments bool, change func(f *File) (bool, error)) (out []byte, changed bool, err error) {
	f, err := Parse(data, comments)
	if err != nil {
		return nil, false, err
	}
	if changed, err = change(f); err != nil {
		return nil, false, err
	} else if !changed {
		return data, false, nil
	}
	return f.Bytes(), true, nil
}
