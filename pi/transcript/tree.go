package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"jig/status"
	base "jig/transcript"
)

// Tree is a session file's entries as Pi's tree: every branch end (leaf)
// with what holds on its branch, and where compactions and branch
// summaries sit. It is built in the reader's one pass.
type Tree struct {
	File    string `json:"file"`
	Header  Header `json:"header"`
	Entries int    `json:"entries"`
	// Active is the leaf Pi continues from: the file's last entry.
	Active string `json:"active"`
	Leaves []Leaf `json:"leaves"`
	// Usage is the whole file's, all branches (as jig pi show says).
	Usage   status.Usage `json:"usage"`
	Skipped int          `json:"skipped"`
}

// Leaf is one branch end.
type Leaf struct {
	ID     string    `json:"id"`
	At     time.Time `json:"at"`
	Active bool      `json:"active"`
	// Depth is how many entries the branch holds, root to leaf.
	Depth int `json:"depth"`
	// From is the entry where this branch leaves another one; "" when no
	// other branch shares its entries.
	From string `json:"from,omitempty"`
	// Prompt is the first words of the branch's latest user message.
	Prompt string `json:"prompt,omitempty"`
	// Label is the label Pi recorded on the leaf or its nearest labelled
	// entry (LabelOn); Name the branch's latest session_info name.
	Label   string `json:"label,omitempty"`
	LabelOn string `json:"labelOn,omitempty"`
	Name    string `json:"name,omitempty"`
	// Usage sums the branch's entries only; cost is null when one had no price.
	Usage status.Usage `json:"usage"`
	// Summaries are the compactions and branch summaries on the branch,
	// oldest first.
	Summaries []Summary `json:"summaries"`
}

// Summary is a compaction or branch_summary entry.
type Summary struct {
	ID   string    `json:"id"`
	Type string    `json:"type"`
	At   time.Time `json:"at"`
}

// treeNode is what the tree keeps per entry, beside the reader's node.
type treeNode struct {
	usage    usageTotals // of the branch ending here
	prompt   int64       // file offset of the branch's latest user message, -1: none
	at       int64       // unix ms
	parent   int32
	summary  int32 // the branch's newest summary, index in summaries, -1: none
	name     int32 // the branch's latest session_info name, index in names, -1: none
	depth    int32
	children int32
}

type treeSummary struct {
	node int32
	prev int32 // the summary before it on its branch
	typ  string
}

// treeBuilder collects the tree while a Reader reads.
type treeBuilder struct {
	r         *Reader
	nodes     []treeNode
	ids       []string
	summaries []treeSummary
	names     []string
	labels    map[string]string // target entry id → label; removed labels deleted
}

// ReadTree reads a session file once and returns its tree. Prompts are cut
// to about maxPrompt characters.
func ReadTree(path string, maxPrompt int) (*Tree, error) {
	t, r, err := buildTree(path)
	if err != nil {
		return nil, err
	}
	return t.tree(r, maxPrompt)
}

func buildTree(path string) (*treeBuilder, *Reader, error) {
	r := NewReader(path)
	t := &treeBuilder{r: r, labels: map[string]string{}}
	r.visit = t.visit
	if err := r.UpdateSession(); err != nil {
		return nil, nil, err // names the file
	}
	return t, r, nil
}

// visit records one entry; it keeps every entry in the tree.
func (t *treeBuilder) visit(l *line, b []byte, off int64) bool {
	r := t.r
	idx := len(r.nodes)
	if idx < len(t.nodes) { // the reader started again
		t.nodes, t.ids = t.nodes[:idx], t.ids[:idx]
	}
	// the same place in the tree Reader.entry gives it
	id, parent := l.id.text(), int32(-1)
	if r.header.Version < 2 || !l.hasID {
		id = v1ID(r.ordinal - 1)
	}
	if r.header.Version < 2 {
		parent = r.leaf
	} else if l.hasParent {
		if p, ok := r.parentOf(l.parentID.bytes()); ok {
			parent = p
		}
	}
	n := treeNode{prompt: -1, parent: -1, summary: -1, name: -1}
	if parent >= 0 {
		n = t.nodes[parent]
		n.parent, n.children = parent, 0
		t.nodes[parent].children++
	}
	n.depth++
	var msg *message
	if l.hasMsg {
		msg = &l.message
	}
	n.at = entryTime(l.timestamp, msg)
	if u := entryUsage(l); u != nil && u.present {
		n.usage.add(u)
	}
	switch l.typ {
	case "message":
		if msg != nil && msg.role == "user" {
			n.prompt = off
		}
	case "compaction", "branch_summary":
		t.summaries = append(t.summaries, treeSummary{node: int32(idx), prev: n.summary, typ: l.typ})
		n.summary = int32(len(t.summaries) - 1)
	case "session_info":
		if l.hasName && l.name != "" {
			t.names = append(t.names, trimJS(l.name))
			n.name = int32(len(t.names) - 1)
		}
	case "label":
		t.label(b)
	}
	t.nodes = append(t.nodes, n)
	t.ids = append(t.ids, id)
	return true
}

// entryUsage is the usage an entry adds to the totals, the same entries
// Reader.addUsage counts: assistant and 1.x toolResult messages, 1.x usage
// entries, compactions and branch summaries.
func entryUsage(l *line) *usageVals {
	switch l.typ {
	case "message":
		if l.hasMsg && (l.message.role == "assistant" || l.message.role == "toolResult") {
			return &l.message.usage
		}
	case "usage", "compaction", "branch_summary":
		return &l.usage
	}
	return nil
}

func (t *usageTotals) add(u *usageVals) {
	t.Input += int64(u.input)
	t.Output += int64(u.output)
	t.CacheRead += int64(u.cacheRead)
	t.CacheWrite += int64(u.cacheWrite)
	if u.priced {
		t.Cost += u.cost
	} else {
		t.Unpriced++
	}
}

func (t usageTotals) status() status.Usage {
	u := status.Usage{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
	if t.Unpriced == 0 {
		c := t.Cost
		u.Cost = &c
	}
	return u
}

// label reads a label entry (rare: parsed whole): the latest label of a
// target wins, an empty one removes it, as in Pi.
func (t *treeBuilder) label(b []byte) {
	var e struct {
		TargetID string `json:"targetId"`
		Label    string `json:"label"`
	}
	if json.Unmarshal(b, &e) != nil || e.TargetID == "" {
		return
	}
	if e.Label = strings.TrimSpace(e.Label); e.Label == "" {
		delete(t.labels, e.TargetID)
	} else {
		t.labels[e.TargetID] = e.Label
	}
}

func (t *treeBuilder) tree(r *Reader, maxPrompt int) (*Tree, error) {
	out := &Tree{File: r.path, Header: r.header, Entries: r.entries, Active: r.leafID,
		Usage: r.totals.status(), Skipped: r.badN, Leaves: []Leaf{}}
	// fork[i]: the nearest ancestor with more than one child; parents come
	// before their children in the file, so one forward pass settles it
	fork := make([]int32, len(t.nodes))
	for i, n := range t.nodes {
		fork[i] = -1
		if p := n.parent; p >= 0 {
			if t.nodes[p].children > 1 {
				fork[i] = p
			} else {
				fork[i] = fork[p]
			}
		}
	}
	f, _, err := openRegular(r.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for i, n := range t.nodes {
		if n.children > 0 {
			continue
		}
		lf := Leaf{ID: t.ids[i], At: base.MsTime(n.at), Active: int32(i) == r.leaf, Depth: int(n.depth),
			Usage: n.usage.status(), Summaries: []Summary{}}
		if fork[i] >= 0 {
			lf.From = t.ids[fork[i]]
		}
		if n.name >= 0 {
			lf.Name = t.names[n.name]
		}
		if len(t.labels) > 0 {
			for j := int32(i); j >= 0; j = t.nodes[j].parent {
				if l, ok := t.labels[t.ids[j]]; ok {
					lf.Label, lf.LabelOn = l, t.ids[j]
					break
				}
			}
		}
		for s := n.summary; s >= 0; s = t.summaries[s].prev {
			ts := t.summaries[s]
			lf.Summaries = append(lf.Summaries, Summary{ID: t.ids[ts.node], Type: ts.typ, At: base.MsTime(t.nodes[ts.node].at)})
		}
		for a, b := 0, len(lf.Summaries)-1; a < b; a, b = a+1, b-1 {
			lf.Summaries[a], lf.Summaries[b] = lf.Summaries[b], lf.Summaries[a]
		}
		if n.prompt >= 0 {
			if ln := lineAt(f, nil, 0, n.prompt); ln != nil {
				lf.Prompt = firstWords(promptText(ln), maxPrompt)
			}
		}
		out.Leaves = append(out.Leaves, lf)
	}
	return out, nil
}

// promptText is a user message line's text: its string content or its
// text blocks joined.
func promptText(line []byte) string {
	var e struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &e) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(e.Message.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(e.Message.Content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// firstWords is s on one line, cut to about max characters at a word.
func firstWords(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut := []rune(s)[:max]
	if i := strings.LastIndexByte(string(cut), ' '); i > max/2 {
		return string(cut)[:i] + "…"
	}
	return string(cut) + "…"
}

// ErrNoEntry is returned for an entry id the file does not hold.
type ErrNoEntry struct{ ID string }

func (e *ErrNoEntry) Error() string { return fmt.Sprintf("no entry %q in the file", e.ID) }

// branchOf is the set of entries on the branch ending at id, by their
// index in reading order.
func (t *treeBuilder) branchOf(id string) ([]bool, error) {
	at := int32(-1)
	for i := len(t.ids) - 1; i >= 0; i-- {
		if t.ids[i] == id {
			at = int32(i)
			break
		}
	}
	if at < 0 {
		return nil, &ErrNoEntry{ID: id}
	}
	on := make([]bool, at+1)
	for j := at; j >= 0; j = t.nodes[j].parent {
		on[j] = true
	}
	return on, nil
}

// readBranch reads path again keeping only the entries marked in on (by
// index in reading order); each kept line is also handed to keep with
// its ordinal (the v1 id's number).
func readBranch(path, home string, on []bool, keep func(l *line, b []byte, ord int) error) (*Reader, error) {
	r := NewReader(path)
	r.Home = home
	i := 0
	var kerr error
	r.visit = func(l *line, b []byte, off int64) bool {
		in := i < len(on) && on[i]
		i++
		if in && keep != nil && kerr == nil {
			kerr = keep(l, b, r.ordinal-1)
		}
		return in
	}
	if err := r.Update(); err != nil {
		return nil, err
	}
	if kerr != nil {
		return nil, kerr
	}
	if i < len(on) {
		return nil, fmt.Errorf("%s changed while read: %d entries, want %d or more", path, i, len(on))
	}
	return r, nil
}

// DeriveBranch is Derive for the branch ending at entry id: model,
// thinking, context, recent calls, and the usage and outputs of that
// branch's entries only. An unknown id is an *ErrNoEntry.
func DeriveBranch(path, id, home string, repo func(string) *string) (*Derived, *Reader, error) {
	t, _, err := buildTree(path)
	if err != nil {
		return nil, nil, err
	}
	on, err := t.branchOf(id)
	if err != nil {
		return nil, nil, err
	}
	r, err := readBranch(path, home, on, nil)
	if err != nil {
		return nil, nil, err
	}
	return r.Derive(repo), r, nil
}
