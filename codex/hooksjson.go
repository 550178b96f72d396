package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"jig/configfile"
)

// hooks.json is edited as text, so every byte of the user's stays: jig
// inserts its groups and removes them again, and nothing else moves. The
// text jig adds has shapes an insertion into the user's own text never
// has, so --uninstall tells apart what it created from what was there:
//
//   - a group appended to an event's list: `, <the list's spacing> GROUP`;
//   - a group put in an empty list: right after its `[`;
//   - an event jig adds: `"Event": [ GROUP ]`, a space inside the brackets;
//   - a hooks object jig adds: `"hooks": {` and a newline before its first
//     event, each event one of jig's.
//
// Removing them is the exact inverse, so install then uninstall gives back
// the file byte for byte (FuzzHooksFile).

// node is one JSON value of a file and where it stands: start and end of
// the value; for an object or list, after its opening bracket (open) and
// at its closing one (close), and its members.
type node struct {
	start, end  int
	kind        byte // '{', '[' or 0
	open, close int
	keys        []string // an object's member keys
	keyStarts   []int    // where each member's key starts
	elems       []*node  // member values, or list elements
}

// memberStart is where member i begins: its key, or the element itself.
func (n *node) memberStart(i int) int {
	if n.kind == '{' {
		return n.keyStarts[i]
	}
	return n.elems[i].start
}

// member is the value of key, and its index.
func (n *node) member(key string) (*node, int) {
	if i := slices.Index(n.keys, key); i >= 0 {
		return n.elems[i], i
	}
	return nil, -1
}

// parseJSON scans valid JSON into nodes; anything else is refused, and
// so is an object with a key twice (serde, which Codex reads it with,
// would take one jig did not edit).
func parseJSON(data []byte) (*node, error) {
	if err := configfile.CheckJSON(data, "Codex reads hooks.json as plain JSON only, so none of its hooks would run: take it out and run again"); err != nil {
		return nil, err
	}
	p := &scanner{data: data}
	return p.value(), nil
}

type scanner struct {
	data []byte
	i    int
}

func (p *scanner) ws() {
	for p.i < len(p.data) && (p.data[p.i] == ' ' || p.data[p.i] == '\t' || p.data[p.i] == '\n' || p.data[p.i] == '\r') {
		p.i++
	}
}

// value scans one value of valid JSON from p.i.
func (p *scanner) value() *node {
	p.ws()
	n := &node{start: p.i}
	switch c := p.data[p.i]; c {
	case '{', '[':
		n.kind, p.i = c, p.i+1
		n.open = p.i
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		for {
			p.ws()
			if p.data[p.i] == end {
				break
			}
			if p.data[p.i] == ',' {
				p.i++
				continue
			}
			if c == '{' {
				ks := p.i
				p.str()
				var k string
				json.Unmarshal(p.data[ks:p.i], &k)
				n.keys, n.keyStarts = append(n.keys, k), append(n.keyStarts, ks)
				p.ws()
				p.i++ // ':'
			}
			n.elems = append(n.elems, p.value())
		}
		n.close, p.i = p.i, p.i+1
	case '"':
		p.str()
	default:
		for p.i < len(p.data) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(p.data[p.i])) {
			p.i++
		}
	}
	n.end = p.i
	return n
}

func (p *scanner) str() {
	for p.i++; p.data[p.i] != '"'; p.i++ {
		if p.data[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
}

func splice(data []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(text))
	return append(append(append(out, data[:from]...), text...), data[to:]...)
}

// insertMember puts text (a member, or an element) last into n: after the
// last one with a comma and the spacing that stands before it, or right
// after the opening bracket of an empty one.
func insertMember(data []byte, n *node, text string) []byte {
	if len(n.elems) == 0 {
		return splice(data, n.open, n.open, text)
	}
	last := len(n.elems) - 1
	s := n.memberStart(last)
	sep := s
	for sep > n.open && data[sep-1] != ',' {
		sep-- // the spacing before the last member, back to its comma or the bracket
	}
	return splice(data, n.elems[last].end, n.elems[last].end, ","+string(data[sep:s])+text)
}

// removeMember takes member i out of n with the comma that joins it: the
// inverse of insertMember when it is the last.
func removeMember(data []byte, n *node, i int) []byte {
	switch {
	case i > 0:
		return splice(data, n.elems[i-1].end, n.elems[i].end, "")
	case len(n.elems) > 1:
		return splice(data, n.memberStart(0), n.memberStart(1), "")
	}
	return splice(data, n.memberStart(0), n.elems[0].end, "")
}

// groupText is jig's group for one event, as jig writes it.
func groupText(cmd string, timeout int) string {
	c, _ := json.Marshal(cmd)
	return fmt.Sprintf(`{"hooks": [{"type": "command", "command": %s, "timeout": %d}]}`, c, timeout)
}

// createdEvent is an event jig adds whole.
func createdEvent(event, group string) string {
	e, _ := json.Marshal(event)
	return string(e) + ": [ " + group + " ]"
}

// hookEntry is one handler of a group as the file says it.
type hookEntry struct {
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Timeout json.RawMessage `json:"timeout"`
}

// groupHooks decodes a group's hooks; ok is false for what is not a group.
func groupHooks(data []byte, g *node) (hooks []hookEntry, matcher bool, ok bool) {
	if g.kind != '{' {
		return nil, false, false
	}
	var v struct {
		Matcher *json.RawMessage `json:"matcher"`
		Hooks   []hookEntry      `json:"hooks"`
	}
	if json.Unmarshal(data[g.start:g.end], &v) != nil {
		return nil, false, false
	}
	return v.Hooks, v.Matcher != nil, true
}

// isJigGroup reports whether a group holds jig's hooks only.
func isJigGroup(data []byte, g *node) bool {
	hooks, _, ok := groupHooks(data, g)
	if !ok || len(hooks) == 0 {
		return false
	}
	for _, h := range hooks {
		if !isJigHook(h.Command) {
			return false
		}
	}
	return true
}

// isCurrent reports whether a group is exactly the one jig installs.
func isCurrent(data []byte, g *node, cmd string, timeout int) bool {
	hooks, matcher, ok := groupHooks(data, g)
	return ok && !matcher && len(hooks) == 1 && hooks[0].Type == "command" && hooks[0].Command == cmd &&
		string(hooks[0].Timeout) == fmt.Sprint(timeout)
}

// isCreatedList reports whether a list is one jig added: `[ GROUP ]`.
func isCreatedList(data []byte, l *node) bool {
	return l.kind == '[' && len(l.elems) == 1 && string(data[l.open:l.elems[0].start]) == " " &&
		string(data[l.elems[0].end:l.close]) == " " && isJigGroup(data, l.elems[0])
}

// isCreatedHooks reports whether a hooks object is one jig added: a
// newline after its `{`, and every event one jig added.
func isCreatedHooks(data []byte, h *node) bool {
	if h.kind != '{' || len(h.elems) == 0 || !bytes.ContainsRune(data[h.open:h.keyStarts[0]], '\n') {
		return false
	}
	for _, l := range h.elems {
		if !isCreatedList(data, l) {
			return false
		}
	}
	return true
}

// hookSpec is one event jig installs a hook for.
type hookSpec struct {
	Event, Label string
	Timeout      int
}

// installHooksFile merges jig's group for every event into hooks.json's
// content, appending it to the event's list; a group of jig's that is not
// the current one (another jig's path, another timeout) is replaced.
func installHooksFile(data []byte, cmd string, specs []hookSpec) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return freshHooksFile(cmd, specs), nil
	}
	for _, sp := range specs {
		for {
			root, hooks, err := hooksObject(data)
			if err != nil {
				return nil, err
			}
			group := groupText(cmd, sp.Timeout)
			if hooks == nil {
				return insertMember(data, root, createdHooks(cmd, specs, indentOf(data, root))), nil
			}
			list, _ := hooks.member(sp.Event)
			if list == nil {
				data = insertMember(data, hooks, createdEvent(sp.Event, group))
				break
			}
			if list.kind != '[' {
				return nil, fmt.Errorf("hooks.%s: not a list", sp.Event)
			}
			current, stale := -1, -1
			for i, g := range list.elems {
				switch {
				case isCurrent(data, g, cmd, sp.Timeout):
					current = i
				case isJigGroup(data, g):
					stale = i
				}
			}
			if stale >= 0 && isCreatedList(data, list) {
				data = splice(data, list.start, list.end, "[ "+group+" ]")
				break
			}
			if stale >= 0 {
				data = removeMember(data, list, stale) // an older jig's group goes, then look again
				continue
			}
			if current < 0 {
				data = insertMember(data, list, group)
			}
			break
		}
	}
	return data, nil
}

// hooksObject is the file's object and its hooks object (nil when none).
func hooksObject(data []byte) (root, hooks *node, err error) {
	root, err = parseJSON(data)
	if err != nil {
		return nil, nil, err
	}
	if root.kind != '{' {
		return nil, nil, errors.New("not a JSON object")
	}
	hooks, _ = root.member("hooks")
	if hooks != nil && hooks.kind != '{' {
		return nil, nil, errors.New("hooks: not a JSON object")
	}
	return root, hooks, nil
}

// createdHooks is the hooks member jig adds, its events one a line,
// indent being the spacing of the object's members.
func createdHooks(cmd string, specs []hookSpec, indent string) string {
	var lines []string
	for _, sp := range specs {
		lines = append(lines, indent+"  "+createdEvent(sp.Event, groupText(cmd, sp.Timeout)))
	}
	return `"hooks": {` + "\n" + strings.Join(lines, ",\n") + "\n" + indent + "}"
}

// indentOf is the spacing before the object's first member on its line
// ("" when the object is empty or on one line).
func indentOf(data []byte, n *node) string {
	if len(n.elems) == 0 {
		return ""
	}
	ws := data[n.open:n.keyStarts[0]]
	if i := bytes.LastIndexByte(ws, '\n'); i >= 0 {
		return string(ws[i+1:])
	}
	return ""
}

// freshHooksFile is the hooks.json jig writes where there is none.
func freshHooksFile(cmd string, specs []hookSpec) []byte {
	return []byte("{\n  " + createdHooks(cmd, specs, "  ") + "\n}\n")
}

// uninstallHooksFile removes jig's groups (and the events and hooks object
// jig added) from hooks.json's content; nil when the file was jig's alone.
func uninstallHooksFile(data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, nil
	}
	for {
		root, hooks, err := hooksObject(data)
		if err != nil {
			return nil, err
		}
		if hooks == nil {
			return data, nil
		}
		_, hi := root.member("hooks")
		if isCreatedHooks(data, hooks) {
			if len(root.elems) == 1 && string(data[:root.keyStarts[0]]) == "{\n  " && string(data[root.elems[0].end:]) == "\n}\n" {
				return nil, nil // the file jig wrote where there was none
			}
			return removeMember(data, root, hi), nil
		}
		next, changed := removeOneJig(data, hooks)
		if !changed {
			return data, nil
		}
		data = next
	}
}

// removeOneJig removes the last of jig's groups (or an event jig added) it
// finds in the hooks object, or a jig hook inside a group of the user's.
func removeOneJig(data []byte, hooks *node) ([]byte, bool) {
	for e := len(hooks.elems) - 1; e >= 0; e-- {
		list := hooks.elems[e]
		if list.kind != '[' {
			continue // not Codex's shape, so no hook of jig's either
		}
		if isCreatedList(data, list) {
			return removeMember(data, hooks, e), true
		}
		for g := len(list.elems) - 1; g >= 0; g-- {
			grp := list.elems[g]
			if isJigGroup(data, grp) {
				return removeMember(data, list, g), true
			}
			if grp.kind != '{' {
				continue
			}
			// a user's group that holds jig's hook among others: just the hook goes
			if hl, _ := grp.member("hooks"); hl != nil && hl.kind == '[' {
				for h := len(hl.elems) - 1; h >= 0; h-- {
					var he hookEntry
					if json.Unmarshal(data[hl.elems[h].start:hl.elems[h].end], &he) == nil && isJigHook(he.Command) {
						return removeMember(data, hl, h), true
					}
				}
			}
		}
	}
	return data, false
}

// jigGroups finds jig's current group of each event: its index in the
// event's list, which names its trust entry.
func jigGroups(data []byte, cmd string, specs []hookSpec) (map[string]int, error) {
	_, hooks, err := hooksObject(data)
	if err != nil || hooks == nil {
		return nil, err
	}
	at := map[string]int{}
	for _, sp := range specs {
		list, _ := hooks.member(sp.Event)
		if list == nil || list.kind != '[' {
			continue
		}
		for i, g := range list.elems {
			if isCurrent(data, g, cmd, sp.Timeout) {
				at[sp.Event] = i
				break
			}
		}
	}
	return at, nil
}
