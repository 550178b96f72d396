// Package transcript is the floor every agent's transcript reader stands
// on (Pi's pi/transcript, Claude Code's claude/transcript, Codex's
// codex/rollout, and any agent added beside them): what a reader says in
// the status file's terms (Derived), where an incremental reader stands in
// a file (FilePos, Lines), session lists and id matching, written outputs,
// shown names, cursor heads and whole-file reads. It knows no agent's
// format.
package transcript

import (
	"os"
	"path/filepath"
	"time"

	"jig/status"
)

// Header is what every agent's transcript says of its session at its
// head: its id, when it started and in which folder. (Pi's own header,
// with its version and parent, is pi/transcript's.)
type Header struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	CWD       string `json:"cwd"`
}

// Derived is what a transcript says about its session, in the status
// file's terms. Fields the transcript cannot know (the context window,
// busy/idle, the tools) are left to the live agent.
type Derived struct {
	File    string `json:"file"`
	Header  Header `json:"header"`
	Entries int    `json:"entries"`
	// Name is the session's latest name, "" when none.
	Name string `json:"name,omitempty"`
	// Model is the session's model as the reader finds it. Name is the
	// id: a transcript has no display name.
	Model *status.Model `json:"model"`
	// Thinking is the thinking level or effort the transcript last says.
	Thinking string       `json:"thinking"`
	Usage    status.Usage `json:"usage"`
	// ContextTokens is the context the next request takes, by the agent's
	// count; nil when the reader cannot know it yet (after a compaction).
	ContextTokens *int64          `json:"contextTokens"`
	Outputs       []status.Output `json:"outputs"`
	Recent        []status.Call   `json:"recent"`
	// RecentIDs are the tool call ids of Recent, one each ("" when not
	// known, as after a restored cursor); not part of the status file.
	RecentIDs []string `json:"-"`
	// Skipped counts the lines the agent would skip.
	Skipped int `json:"skipped"`
}

// MsOf is an ISO time in unix ms, 0 when it is not one.
func MsOf(iso string) int64 {
	t, err := time.Parse(time.RFC3339Nano, iso)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
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
