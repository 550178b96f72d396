// Package settingsjson edits the JSON settings file of an agent whose
// hooks have Claude Code's shape — Claude Code's settings.json, Gemini
// CLI's, Qwen Code's: `"hooks": {"<Event>": [{"matcher"?, "hooks":
// [{"type": "command", "command", "timeout", …}]}]}`. The file is a syntax
// tree that keeps every byte of it (hujson): an edit changes only the
// entries it adds, removes or sets, laid out like their neighbours, so the
// user's key order, spacing, comments and everything jig does not touch
// stay as they were, and removing what an edit added gives the same bytes
// back.
package settingsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"jig/configfile"
)

// File is a settings file being edited.
type File struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
}

// Dialect is what the agent itself accepts in its file beyond JSON.
type Dialect struct {
	Agent    string // as a sentence names it, in a refusal's words
	Comments bool   // comments, stripped before the agent parses it (Gemini CLI's strip-json-comments); else plain JSON only (Claude Code)
}

var errNotObject = errors.New("not a JSON object")

// Parse reads a settings file's content; an empty one is {}. What the
// agent would not read itself is refused, and so is a hooks member that is
// neither an object nor null.
func Parse(data []byte, d Dialect) (*File, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	// a key twice (the agent takes the last, jig would edit the first),
	// and, where the agent reads plain JSON, a comment: Claude Code 2.1.328
	// ignores such a file whole (TestClaudeIgnoresCommentedSettings)
	check := configfile.CheckJWCC
	if !d.Comments {
		why := d.Agent + " ignores a settings.json that is not plain JSON, so none of its hooks would run: take it out and run again"
		check = func(data []byte) error { return configfile.CheckJSON(data, why) }
	}
	if err := check(data); err != nil {
		return nil, err
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, errNotObject
	}
	if trailingComma(&v) { // JSON.parse refuses it, comments stripped or not
		return nil, errors.New("a trailing comma: not JSON")
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errNotObject
	}
	f := &File{root: v, unit: "  "}
	if len(root.Members) > 0 {
		if in, ok := lineIndent(root.Members[0].Name.BeforeExtra); ok && in != "" {
			f.unit = in
		}
	}
	if h := Member(root, "hooks"); h != nil {
		if _, ok := h.Value.(*hujson.Object); !ok && !IsNull(h) {
			return nil, errors.New("hooks: not a JSON object")
		}
	}
	return f, nil
}

// trailingComma reports whether a container in v ends in a comma, which
// hujson takes and JSON (with or without comments) does not: hujson keeps
// space of its own after a last value only when a comma follows it.
func trailingComma(v *hujson.Value) bool {
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			if trailingComma(&c.Members[i].Value) {
				return true
			}
		}
		return len(c.Members) > 0 && c.Members[len(c.Members)-1].Value.AfterExtra != nil
	case *hujson.Array:
		for i := range c.Elements {
			if trailingComma(&c.Elements[i]) {
				return true
			}
		}
		return len(c.Elements) > 0 && c.Elements[len(c.Elements)-1].AfterExtra != nil
	}
	return false
}

// Root is the file's top object.
func (f *File) Root() *hujson.Object { return f.root.Value.(*hujson.Object) }

// Bytes is the file's content.
func (f *File) Bytes() []byte { return f.root.Pack() }

// IsNull reports whether v is null.
func IsNull(v *hujson.Value) bool {
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

// Decode reads a part of the file into v.
func Decode(part *hujson.Value, v any) error {
	c := part.Clone()
	c.BeforeExtra, c.AfterExtra = nil, nil
	c.Standardize() // comments inside it are space to encoding/json
	return json.Unmarshal(c.Pack(), v)
}

// layout is how a new entry of a container is laid out: before it (like its
// last sibling's, or on a line of its own one level in from outer), the
// indentation of its lines, and whether it shares the container's line.
func (f *File) layout(last *hujson.Value, outer string) (before hujson.Extra, indent string, inline bool) {
	if last == nil {
		return hujson.Extra("\n" + outer + f.unit), outer + f.unit, false
	}
	if in, ok := lineIndent(last.BeforeExtra); ok {
		if len(bytes.TrimSpace(last.BeforeExtra)) > 0 { // a comment of the user's is theirs, not a layout
			return hujson.Extra("\n" + in), in, false
		}
		return append(hujson.Extra(nil), last.BeforeExtra...), in, false
	}
	return hujson.Extra(" "), outer, true
}

// value is v laid out at indent: on one line when inline, else over lines
// as the file indents them.
func (f *File) value(v any, indent string, inline bool) hujson.ValueTrimmed {
	// a command's & < > stay as written, not \u0026: a wrapped command
	// given back is the user's own text
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !inline {
		enc.SetIndent(indent, f.unit)
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
func (f *File) Add(obj *hujson.Object, outer, name string, v any) *hujson.Value {
	var last *hujson.Value
	colon := hujson.Extra(" ")
	if n := len(obj.Members); n > 0 {
		last, colon = &obj.Members[n-1].Name, obj.Members[n-1].Value.BeforeExtra
	} else {
		emptied(&obj.AfterExtra, outer)
	}
	before, indent, inline := f.layout(last, outer)
	key, _ := json.Marshal(name)
	obj.Members = append(obj.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: before, Value: hujson.Literal(key)},
		Value: hujson.Value{BeforeExtra: append(hujson.Extra(nil), colon...), Value: f.value(v, indent, inline)},
	})
	return &obj.Members[len(obj.Members)-1].Value
}

// push appends v to arr, whose elements are indented one level in from outer.
func (f *File) push(arr *hujson.Array, outer string, v any) {
	var last *hujson.Value
	if n := len(arr.Elements); n > 0 {
		last = &arr.Elements[n-1]
	} else {
		emptied(&arr.AfterExtra, outer)
	}
	before, indent, inline := f.layout(last, outer)
	arr.Elements = append(arr.Elements, hujson.Value{BeforeExtra: before, Value: f.value(v, indent, inline)})
}

// Set replaces the value at v (a member whose line is indented by indent),
// keeping the space around it.
func (f *File) Set(v *hujson.Value, x any, indent string) {
	v.Value = f.value(x, indent, false)
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

// Command is the command line of a jig subcommand (args: "claude", "hook")
// as a settings file holds it: bin is the jig to run, quoted when it needs
// to be.
func Command(bin string, args ...string) string {
	if strings.ContainsAny(bin, " \t'\"\\$`!*?[]{}()<>|&;#~") {
		bin = ShellQuote(bin)
	}
	return bin + " " + strings.Join(args, " ")
}

// ShellQuote is s as one /bin/sh word.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// IsJig reports whether a command line runs jig's subcommand args: a
// program named jig or jig-fast (any path, quoted or not) with those
// arguments first.
func IsJig(cmd string, args ...string) bool {
	got, ok := JigArgs(cmd)
	return ok && len(got) >= len(args) && slices.Equal(got[:len(args)], args)
}

// JigArgs is the arguments of a command line whose program is named jig,
// or jig-fast (hot.FastName), which answers alike (any path, quoted as
// Command quotes it or not); ok is false for any other command line.
func JigArgs(cmd string) (args []string, ok bool) {
	cmd = strings.TrimSpace(cmd)
	var prog, rest string
	if strings.HasPrefix(cmd, "'") {
		end := strings.LastIndex(cmd, "' ")
		if end <= 0 {
			return nil, false
		}
		prog, rest = strings.ReplaceAll(cmd[1:end], `'\''`, "'"), cmd[end+2:]
	} else if prog, rest, ok = strings.Cut(cmd, " "); !ok {
		return nil, false
	}
	if name := filepath.Base(prog); name != "jig" && name != "jig-fast" {
		return nil, false
	}
	return strings.Fields(rest), true
}

// Hook is one hook entry jig writes, in the order the agents document
// their keys; Name is left out when empty (Claude Code's have none).
type Hook struct {
	Type    string `json:"type"`
	Name    string `json:"name,omitempty"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// Group is one group of an event's list jig writes: Matcher is left out
// when empty (an event that takes none).
type Group struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []Hook `json:"hooks"`
}

// hooks is the settings' hooks object, made (at the end of the file) when
// create is set and there is none; nil otherwise.
func (f *File) hooks(create bool) *hujson.Object {
	h := Member(f.Root(), "hooks")
	if h == nil || IsNull(h) {
		if !create {
			return nil
		}
		if h == nil {
			h = f.Add(f.Root(), "", "hooks", struct{}{})
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

// hasGroup reports whether a group of the list holds exactly want's hook,
// with want's matcher when it has one.
func hasGroup(gs *hujson.Array, want Group) bool {
	if gs == nil {
		return false
	}
	h := want.Hooks[0]
	for i := range gs.Elements {
		var g struct {
			Matcher *string          `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		}
		if Decode(&gs.Elements[i], &g) != nil || want.Matcher != "" && (g.Matcher == nil || *g.Matcher != want.Matcher) {
			continue
		}
		for _, got := range g.Hooks {
			name, _ := got["name"].(string)
			if got["type"] == h.Type && got["command"] == h.Command && got["timeout"] == float64(h.Timeout) && name == h.Name {
				return true
			}
		}
	}
	return false
}

// withoutJig drops the hooks isJig says are jig's from every group of the
// list, and the groups it leaves empty. It reports whether it dropped any.
func withoutJig(gs *hujson.Array, isJig func(cmd string) bool) bool {
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
			if Decode(&list.Elements[j], &h) == nil && isJig(h.Command) {
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

// InstallHooks puts jig's group (group(event), one hook) last in each
// event's list, unless one of the list's groups holds it already; a hook
// isJig says is jig's (an older jig's) goes first. It reports whether it
// changed anything.
func (f *File) InstallHooks(events []string, group func(event string) Group, isJig func(cmd string) bool) (bool, error) {
	changed := false
	for _, ev := range events {
		want := group(ev)
		if hasGroup(groups(f.hooks(false), ev), want) {
			continue
		}
		hooks := f.hooks(true)
		gs := groups(hooks, ev)
		switch v := Member(hooks, ev); {
		case gs != nil:
			withoutJig(gs, isJig)
		case v == nil:
			gs = f.Add(hooks, IndentOf(f.Root(), "hooks"), ev, []any{}).Value.(*hujson.Array)
		case IsNull(v):
			gs = &hujson.Array{}
			v.Value = gs
		default:
			return false, fmt.Errorf("hooks.%s: not a list", ev)
		}
		f.push(gs, IndentOf(hooks, ev), want)
		changed = true
	}
	return changed, nil
}

// UninstallHooks removes the hooks isJig says are jig's, from every event,
// and what held only them: after InstallHooks it gives the file's bytes
// back. It reports whether it changed anything.
func (f *File) UninstallHooks(isJig func(cmd string) bool) bool {
	hooks := f.hooks(false)
	if hooks == nil {
		return false
	}
	changed := false
	for i := len(hooks.Members) - 1; i >= 0; i-- {
		gs, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok || !withoutJig(gs, isJig) {
			continue // not the agent's shape, so no hook of jig's either: left as it is
		}
		changed = true
		if len(gs.Elements) == 0 {
			RemoveMember(hooks, i)
		}
	}
	if changed && len(hooks.Members) == 0 {
		RemoveMember(f.Root(), Index(f.Root(), "hooks"))
	}
	return changed
}
