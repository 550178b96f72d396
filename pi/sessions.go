package pi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"jig/pi/transcript"
	"jig/status"
	base "jig/transcript"
)

// Sessions finds Pi's session files: the folder Pi keeps them in, and jig's
// id → path cache in the state dir, a hint that spares `jig pi show ID` a
// scan of every session file. A cached path is used only when the file is
// still in the sessions folder and its header still has the id; anything
// else means a scan, which rewrites the cache.
type Sessions struct {
	Dir   string      // Pi's sessions folder
	Flat  bool        // Dir was named ($PI_CODING_AGENT_SESSION_DIR): no folder per cwd in it
	State *status.Dir // where the cache goes; nil: no cache
}

// NewSessions finds Pi's sessions folder and jig's state dir from the
// environment. A state dir jig must not trust gets no cache.
func NewSessions(getenv func(string) string) *Sessions {
	s := &Sessions{Dir: SessionsDir(getenv), Flat: getenv("PI_CODING_AGENT_SESSION_DIR") != ""}
	if dir, err := status.Locate(getenv); err == nil && dir.Check(cacheDir) == nil {
		s.State = dir
	}
	return s
}

// SessionsDir is where Pi keeps its sessions: $PI_CODING_AGENT_SESSION_DIR,
// else $PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions.
func SessionsDir(getenv func(string) string) string {
	expand := func(p string) string {
		if home := getenv("HOME"); home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			return filepath.Join(home, p[1:])
		}
		return p
	}
	if d := getenv("PI_CODING_AGENT_SESSION_DIR"); d != "" {
		return expand(d)
	}
	if d := getenv("PI_CODING_AGENT_DIR"); d != "" {
		return filepath.Join(expand(d), "sessions")
	}
	return filepath.Join(getenv("HOME"), ".pi", "agent", "sessions")
}

// List reads the header of every .jsonl directly in the sessions folder or
// one folder down (Pi's per-cwd folders), newest first, and saves the cache.
func (s *Sessions) List() ([]*transcript.Info, error) {
	var files []string
	for _, pat := range []string{"*.jsonl", "*/*.jsonl"} {
		m, err := filepath.Glob(filepath.Join(globEscape(s.Dir), pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	infos := make([]*transcript.Info, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				infos[i], _ = transcript.ReadInfo(files[i]) // not a session: left out, as Pi does
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	out := infos[:0]
	for _, in := range infos {
		if in != nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Modified.Equal(out[j].Modified) {
			return out[i].Modified.After(out[j].Modified)
		}
		return out[i].Started > out[j].Started
	})
	c := cache{Sessions: make(map[string]string, len(out))}
	for _, in := range out {
		if abs, err := filepath.Abs(in.File); err == nil {
			c.Sessions[in.ID] = abs
		}
	}
	s.save(c)
	return out, nil
}

func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(p)
}

// Find takes a file path, or a session id (or the start of one) to look up
// in the sessions folder. Whatever is there by that name is the file, to be
// refused by its reader when it is no session (a folder, a fifo).
func (s *Sessions) Find(arg string) (string, error) {
	if _, err := os.Stat(arg); !errors.Is(err, fs.ErrNotExist) {
		return arg, nil
	}
	if file, ok := s.cached(arg); ok {
		return file, nil
	}
	infos, err := s.List()
	if err != nil {
		return "", err
	}
	return base.MatchID(arg, s.Dir, infos, func(in *transcript.Info) (string, string) { return in.ID, in.File })
}

// Remember adds one session (a fork just written) to the cache.
func (s *Sessions) Remember(id, file string) {
	c := s.read()
	c.Sessions[id] = file
	s.save(c)
}

const cacheDir, cacheFile = "cache", "pi-sessions.json"

type cache struct {
	Sessions map[string]string `json:"sessions"` // id → file
}

func (s *Sessions) read() cache {
	c := cache{Sessions: map[string]string{}}
	if s.State != nil {
		if data, err := status.ReadFileNoFollow(s.State.Path(cacheDir, cacheFile)); err == nil {
			json.Unmarshal(data, &c)
		}
	}
	if c.Sessions == nil {
		c.Sessions = map[string]string{}
	}
	return c
}

// cached is the cache's file for id when it still holds it.
func (s *Sessions) cached(id string) (string, bool) {
	file, ok := s.read().Sessions[id]
	if !ok {
		return "", false
	}
	rel, err := filepath.Rel(s.Dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if h, err := transcript.ReadHeader(file); err != nil || h.ID != id {
		return "", false
	}
	return file, true
}

// save writes the cache; failing to is no error (it is a hint).
func (s *Sessions) save(c cache) {
	if s.State == nil {
		return
	}
	data, err := json.Marshal(c)
	if err != nil || len(data) > status.MaxFileSize {
		return
	}
	path := s.State.Path(cacheDir, cacheFile)
	if old, err := status.ReadFileNoFollow(path); err == nil && string(old) == string(data) {
		return
	}
	if s.State.Ensure(cacheDir) == nil {
		status.WriteFileAtomic(path, data)
	}
}

// LineageStep is one ancestor named by a parentSession header.
type LineageStep struct {
	File    string `json:"file"`
	ID      string `json:"id,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// Lineage follows parentSession from file to file, up to 50 steps.
func Lineage(parent string) []LineageStep {
	var out []LineageStep
	seen := map[string]bool{}
	for parent != "" && !seen[parent] && len(out) < 50 {
		seen[parent] = true
		in, err := transcript.ReadInfo(parent)
		if err != nil {
			out = append(out, LineageStep{File: parent, Missing: true})
			break
		}
		out = append(out, LineageStep{File: parent, ID: in.ID})
		parent = in.Parent
	}
	return out
}

// Row is one session of `jig pi sessions` with its lineage both ways,
// resolved among the sessions listed.
type Row struct {
	*transcript.Info
	ParentID string   `json:"parentId,omitempty"`
	Children []string `json:"children"`
}

// Rows gives each session its parent's id and its children's ids.
func Rows(infos []*transcript.Info) []Row {
	rows := make([]Row, len(infos))
	byFile := map[string]int{}
	for i, in := range infos {
		rows[i] = Row{Info: in, Children: []string{}}
		if abs, err := filepath.Abs(in.File); err == nil {
			byFile[abs] = i
		}
	}
	for i, in := range infos {
		if in.Parent == "" {
			continue
		}
		abs, err := filepath.Abs(in.Parent)
		if err != nil {
			continue
		}
		if p, ok := byFile[abs]; ok {
			rows[i].ParentID = infos[p].ID
			rows[p].Children = append(rows[p].Children, in.ID)
		}
	}
	return rows
}

// Derive reads what a Pi session's transcript says, on the branch ending
// at the entry leaf ("" for the file as Pi continues it), home shortening
// paths. A file that is no session is status.ErrBadInput (the reader names
// the file), a leaf that is no entry of it status.ErrNotFound.
func Derive(file, leaf, home string) (*transcript.Derived, *transcript.Reader, error) {
	if leaf != "" {
		d, r, err := transcript.DeriveBranch(file, leaf, home, base.NewRepoFinder().Repo)
		return d, r, branchError(file, err)
	}
	r := transcript.NewReader(file)
	r.Home = home
	if err := r.UpdateSession(); err != nil {
		return nil, nil, status.Mark(status.ErrBadInput, err)
	}
	return r.Derive(base.NewRepoFinder().Repo), r, nil
}

// Shown is what `jig pi show` says of a session: what its transcript
// derives, the lines it skipped and the sessions it was forked from.
type Shown struct {
	*transcript.Derived
	BadLines []transcript.BadLine `json:"badLines"`
	Lineage  []LineageStep        `json:"lineage"`
	// Warnings say what the reader left out: each bad line, how many more
	// it skipped, a last line it did not read yet.
	Warnings []string `json:"-"`
}

// Show is Derive with the session's lineage and what the reader left out.
func Show(file, leaf, home string) (*Shown, error) {
	d, r, err := Derive(file, leaf, home)
	if err != nil {
		return nil, err
	}
	sh := &Shown{Derived: d, BadLines: r.BadLines(), Lineage: Lineage(d.Header.ParentSession)}
	for _, b := range sh.BadLines {
		sh.Warnings = append(sh.Warnings, fmt.Sprintf("%s:%d: skipped: %s", file, b.Line, b.Reason))
	}
	if d.Skipped > len(sh.BadLines) {
		sh.Warnings = append(sh.Warnings, fmt.Sprintf("%s: %d more lines skipped", file, d.Skipped-len(sh.BadLines)))
	}
	if tail := r.Unread(); tail > 0 {
		sh.Warnings = append(sh.Warnings, fmt.Sprintf("%s: last line has no newline yet (%d bytes), not read", file, tail))
	}
	return sh, nil
}

// branchError marks an error of reading file's branches: no such entry,
// or a file that is no session.
func branchError(file string, err error) error {
	var noEntry *transcript.ErrNoEntry
	switch {
	case errors.As(err, &noEntry):
		return status.Mark(status.ErrNotFound, fmt.Errorf("%s: %w", file, err))
	case errors.Is(err, transcript.ErrNotSession):
		return status.Mark(status.ErrBadInput, err)
	}
	return err
}

// Fork writes a new session holding file's branch up to the entry at (no
// entries with empty) into Pi's sessions folder for cwd (the source's when
// ""), as Pi's own fork does, and remembers it (see transcript.Fork).
func (s *Sessions) Fork(file, at string, empty bool, cwd string, now time.Time) (*transcript.Forked, error) {
	h, err := transcript.ReadHeader(file)
	if err != nil {
		return nil, status.Mark(status.ErrBadInput, err) // the reader names the file
	}
	if cwd == "" {
		cwd = h.CWD
	}
	dir := s.Dir
	if !s.Flat {
		dir = filepath.Join(dir, transcript.SessionDirName(cwd))
	}
	f, err := transcript.Fork(file, at, empty, dir, cwd, now)
	if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("%s: not writable: %v", dir, errors.Unwrap(err))
	}
	if err != nil {
		return nil, branchError(file, err)
	}
	s.Remember(f.ID, f.Path)
	return f, nil
}
