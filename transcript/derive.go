package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"jig/status"
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

// Derived is what a transcript says about its session, in the status
// file's terms. Fields the transcript cannot know (the context window,
// busy/idle, the tools) are left to the live agent.
type Derived struct {
	File    string `json:"file"`
	Header  Header `json:"header"`
	Entries int    `json:"entries"`
	Leaf    string `json:"leaf"`
	// Name is the latest session_info name, "" when none.
	Name string `json:"name,omitempty"`
	// Model is the branch's model: its latest model_change or assistant
	// message (in Pi 1.x files the latest model_change wins), else the v1
	// header's. Name is the id: the transcript has no display name.
	Model *status.Model `json:"model"`
	// Thinking is the branch's latest thinking_level_change, "off" without one.
	Thinking string       `json:"thinking"`
	Usage    status.Usage `json:"usage"`
	// ContextTokens is Pi's estimate for the branch; nil after a
	// compaction until the next assistant reply.
	ContextTokens *int64          `json:"contextTokens"`
	Outputs       []status.Output `json:"outputs"`
	Recent        []status.Call   `json:"recent"`
	// RecentIDs are the tool call ids of Recent, one each ("" when not
	// known, as after a restored cursor); not part of the status file.
	RecentIDs []string `json:"-"`
	// Skipped counts the lines Pi would skip; Reader.BadLines names them.
	Skipped int `json:"skipped"`
}

// BadLines are the skipped lines (the first 1000), for warnings.
func (r *Reader) BadLines() []BadLine { return append([]BadLine(nil), r.bad...) }

// Derive computes the status fields from what has been read. repo names
// the git work tree holding a path (nil for none); a nil repo gives every
// output a null repo. Derive costs the outputs and 15 calls, not the file.
func (r *Reader) Derive(repo func(path string) *string) *Derived {
	d := &Derived{File: r.path, Header: r.header, Entries: r.entries, Leaf: r.leafID, Name: r.name,
		Thinking: "off", Skipped: r.badN, Outputs: []status.Output{}, Recent: []status.Call{}}
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
		d.Recent = append(d.Recent, status.Call{At: msTime(cl.at), Tool: r.strs[cl.tool],
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
			r.sorted = append(r.sorted, status.Output{Path: p, Action: a, At: msTime(o.at)})
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

func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
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
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// RepoFinder finds the git work tree holding a path by looking for .git (a
// folder, or a file in worktrees and submodules) in it and its parents. It
// never runs git and remembers each folder's answer.
type RepoFinder struct {
	cache map[string]*string
}

func NewRepoFinder() *RepoFinder { return &RepoFinder{cache: map[string]*string{}} }

// Repo returns the work tree's root, or nil.
func (f *RepoFinder) Repo(path string) *string {
	return f.dir(filepath.Dir(path))
}

func (f *RepoFinder) dir(d string) *string {
	if r, ok := f.cache[d]; ok {
		return r
	}
	var r *string
	if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
		root := d
		r = &root
	} else if parent := filepath.Dir(d); parent != d {
		r = f.dir(parent)
	}
	f.cache[d] = r
	return r
}
