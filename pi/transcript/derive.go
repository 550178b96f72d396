package transcript

import (
	"path/filepath"
	"slices"
	"strings"

	"jig/status"
	base "jig/transcript"
)

// Call outcomes while reading.
const (
	outcomePending uint8 = iota
	outcomeOK
	outcomeError
)

// Actions name what a call did, from a fixed list, never from an argument
// value: read | read-part | write | edit | multi-edit | run | search | list.
var actions = []string{"", "read", "read-part", "write", "edit", "multi-edit", "run", "search", "list"}

func actionOf(tool string, tc *toolCall) uint8 {
	switch tool {
	case "read":
		if tc.ranged {
			return 2
		}
		return 1
	case "write":
		return 3
	case "edit":
		if tc.edits > 1 {
			return 5
		}
		return 4
	case "bash", "powershell":
		return 6
	case "grep", "find":
		return 7
	case "ls":
		return 8
	}
	return 0
}

// Derived is what a Pi transcript says: the fields every agent's reader
// fills, and Pi's own header and leaf.
type Derived struct {
	Header Header `json:"header"`
	Leaf   string `json:"leaf"`
	base.Derived
}

// BadLines are the skipped lines (the first 1000), for warnings.
func (r *Reader) BadLines() []BadLine { return append([]BadLine(nil), r.bad...) }

// Derive computes the status fields from what has been read. repo names
// the git work tree holding a path (nil for none); a nil repo gives every
// output a null repo. Derive costs the outputs and 15 calls, not the file.
func (r *Reader) Derive(repo func(path string) *string) *Derived {
	h := r.header
	d := &Derived{Header: h, Leaf: r.leafID, Derived: base.Derived{File: r.path, Entries: r.entries, Name: r.name,
		Header:   base.Header{ID: h.ID, Timestamp: h.Timestamp, CWD: h.CWD},
		Thinking: "off", Skipped: r.badN, Outputs: []status.Output{}, Recent: []status.Call{}}}
	t := r.totals
	d.Usage = status.Usage{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
	if t.Unpriced == 0 {
		c := t.Cost
		d.Usage.Cost = &c
	}
	var n node
	if r.leaf >= 0 {
		n = r.nodes[r.leaf]
	} else {
		n = node{model: -1, modelChange: -1, thinking: -1, calls: -1}
	}
	m := n.model
	if r.newer1x && n.modelChange >= 0 {
		m = n.modelChange
	}
	switch {
	case m >= 0:
		ref := r.models[m]
		d.Model = &status.Model{Provider: ref.Provider, ID: ref.ID, Name: ref.ID}
	case r.header.ModelID != "":
		d.Model = &status.Model{Provider: r.header.Provider, ID: r.header.ModelID, Name: r.header.ModelID}
	}
	if n.thinking >= 0 && r.strs[n.thinking] != "" {
		d.Thinking = r.strs[n.thinking]
	}
	if !n.compacted || n.hasValid && n.validTokens > 0 {
		tok := n.trailing
		if n.hasValid {
			tok += n.validTokens
		}
		d.ContextTokens = &tok
	}
	for c := n.calls; c >= 0 && len(d.Recent) < status.MaxRecent; c = r.calls[c].prev {
		cl := r.calls[c]
		d.Recent = append(d.Recent, status.Call{At: base.MsTime(cl.at), Tool: r.strs[cl.tool],
			Action: actions[cl.action], Outcome: [...]string{status.Pending, status.OK, status.Error}[cl.outcome]})
		d.RecentIDs = append(d.RecentIDs, cl.id)
	}
	if r.sorted == nil || len(r.sorted) != len(r.outputs) || r.outputsChanged {
		// sorted again only when a write or edit landed since
		r.sorted = r.sorted[:0]
		for p, o := range r.outputs {
			a := status.Changed
			if o.created {
				a = status.Created
			}
			r.sorted = append(r.sorted, status.Output{Path: p, Action: a, At: base.MsTime(o.at)})
		}
		slices.SortFunc(r.sorted, func(a, b status.Output) int {
			if c := b.At.Compare(a.At); c != 0 {
				return c
			}
			return strings.Compare(a.Path, b.Path)
		})
		r.outputsChanged = false
	}
	// newest first, up to 50 without a repo and 50 with one
	outs := make([]status.Output, 0, min(len(r.sorted), 2*status.MaxOutputsPerKind))
	var with, without int
	for _, o := range r.sorted {
		if with == status.MaxOutputsPerKind && without == status.MaxOutputsPerKind {
			break
		}
		if repo != nil {
			o.Repo = repo(o.Path)
		}
		if o.Repo == nil && without < status.MaxOutputsPerKind {
			without++
			outs = append(outs, o)
		} else if o.Repo != nil && with < status.MaxOutputsPerKind {
			with++
			outs = append(outs, o)
		}
	}
	d.Outputs = outs
	return d
}

// ResolvePath is Pi's reading of a tool's path argument: a leading '@' is
// dropped, '~' is home (left as is when home is unknown), and a relative
// path is relative to the session's cwd.
func ResolvePath(cwd, home, p string) string {
	p = strings.TrimPrefix(p, "@")
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~") && cwd != "" {
		return filepath.Join(cwd, p) // cleaned by Join
	}
	return filepath.Clean(p)
}
