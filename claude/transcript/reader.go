// Package transcript reads a Claude Code transcript
// ($HOME/.claude/projects/<cwd with / as ->/<session id>.jsonl) into the
// status file's terms, in the same shape as the Pi reader (jig/transcript's
// Derived), so the same engine builds a Claude session's status.
//
// It reads incrementally: each Update reads only the lines appended since
// the last one, and a Reader saves where it stopped (MarshalCursor) so a
// one-shot hook process carries on from there (RestoreReader). It keeps
// names, paths and numbers only: a tool's arguments are looked at for the
// path a write touches and never kept.
package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"jig/status"
	pi "jig/transcript"
)

// Limits.
const (
	MaxLine     = 32 << 20 // a longer line is skipped unread
	tailLen     = 64       // bytes before the cursor that must not change
	keptIDs     = 64       // message ids remembered for deduplicating usage
	maxPending  = 200      // tool calls waiting for their result
	maxNames    = 256      // offered and deferred tools, and skills
	syntheticID = "<synthetic>"
)

// Provider is the provider every Claude Code model is reported under.
const Provider = "anthropic"

// Totals are token counts.
type Totals struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
}

func (t *Totals) add(u Totals, sign int64) {
	t.Input += sign * u.Input
	t.Output += sign * u.Output
	t.CacheRead += sign * u.CacheRead
	t.CacheWrite += sign * u.CacheWrite
}

// counted is one message id and the usage counted for it.
type counted struct {
	ID    string `json:"id"`
	Usage Totals `json:"usage"`
}

// Call is one tool call: a name, what kind of action, how it ended.
type Call struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"` // as the recent list shows it (MCP: server/tool)
	Action  string `json:"action,omitempty"`
	Outcome string `json:"outcome"`
	At      int64  `json:"at"` // unix ms
}

// pending is a call waiting for its result: its name and the file a write
// touches (the only argument ever kept, as the outputs list holds it).
type pending struct {
	Tool string `json:"tool"`
	Path string `json:"path,omitempty"`
}

// Output is a file a successful write or edit touched.
type Output struct {
	Created bool  `json:"created"`
	At      int64 `json:"at"`
}

// state is everything a Reader knows; it is also the cursor's body.
type state struct {
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Started   string `json:"started"`
	Entries   int    `json:"entries"`
	Skipped   int    `json:"skipped"`
	Model     string `json:"model"`
	Effort    string `json:"effort"`
	TurnEnded bool   `json:"turnEnded"` // the latest entry is a reply that ends the turn

	Totals  Totals    `json:"totals"`
	Counted []counted `json:"counted"` // the newest message ids, oldest first
	Context *int64    `json:"context"` // tokens of the latest reply's context; nil after a compaction

	Cost      *float64 `json:"cost"`      // the latest cost-state's total
	CostFresh bool     `json:"costFresh"` // no reply with usage came after it

	Offered  []string `json:"offered"`  // the tools of the latest request's shape
	Deferred []string `json:"deferred"` // tools the model can load by ToolSearch
	Skills   []string `json:"skills"`

	Calls   []Call             `json:"calls"` // the newest MaxRecent, oldest first
	Pending map[string]pending `json:"pending"`
	Outputs map[string]Output  `json:"outputs"`
}

// Reader reads one transcript incrementally. It is not safe for
// concurrent use.
type Reader struct {
	path string
	// cursor
	dev, ino uint64
	size     int64
	offset   int64
	tailHash uint64 // of the tailLen bytes before offset: a hash, never the bytes (no values)
	tailLen  int
	st       state
	buf      []byte
}

// NewReader prepares to read the transcript at path. It does no I/O.
func NewReader(path string) *Reader {
	r := &Reader{path: path}
	r.reset()
	return r
}

func (r *Reader) reset() {
	*r = Reader{path: r.path, buf: r.buf}
	r.st.Pending = map[string]pending{}
	r.st.Outputs = map[string]Output{}
}

// Path is the transcript's path.
func (r *Reader) Path() string { return r.path }

// Offset is how many bytes have been consumed: complete lines only.
func (r *Reader) Offset() int64 { return r.offset }

// Update reads what was appended since the last call. A last line without
// its newline is left for later: Claude may be writing it. A file that was
// replaced, shrank or changed before the cursor is read again from the start.
func (r *Reader) Update() error {
	f, fi, err := status.OpenFile(r.path, status.FollowLinks, status.AnySize)
	if errors.Is(err, status.ErrNotRegular) {
		return status.FileError(r.path, err)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var dev, ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		dev, ino = uint64(st.Dev), uint64(st.Ino)
	}
	if r.offset > 0 && !r.same(f, dev, ino, fi.Size()) {
		r.reset()
	}
	r.dev, r.ino, r.size = dev, ino, fi.Size()
	if r.size == r.offset {
		return nil // nothing new: the hook's usual case
	}
	if err := r.read(f); err != nil {
		return err
	}
	r.tailLen = int(min(r.offset, tailLen))
	tail := make([]byte, r.tailLen)
	if _, err := f.ReadAt(tail, r.offset-int64(r.tailLen)); err != nil {
		return err
	}
	r.tailHash = hashOf(tail)
	return nil
}

// same reports whether the file is still the one read up to r.offset.
func (r *Reader) same(f *os.File, dev, ino uint64, size int64) bool {
	if dev != r.dev || ino != r.ino || size < r.offset {
		return false
	}
	got := make([]byte, r.tailLen)
	if _, err := f.ReadAt(got, r.offset-int64(len(got))); err != nil || hashOf(got) != r.tailHash {
		return false
	}
	return true
}

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// read consumes complete lines from r.offset on, as Pi's reader does.
func (r *Reader) read(f *os.File) error {
	var err error
	r.offset, r.buf, err = pi.Lines(f, r.offset, r.size, r.buf, lineLimit,
		func(b []byte, _ int64) error {
			r.line(b)
			return nil
		},
		func(int64) { r.st.Skipped++ })
	return err
}

// entry is the part of a transcript line the reader uses. Fields whose
// type varies between entries are raw and decoded where needed.
type entry struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	Timestamp   string          `json:"timestamp"`
	SessionID   string          `json:"sessionId"`
	CWD         string          `json:"cwd"`
	IsSidechain bool            `json:"isSidechain"`
	Effort      json.RawMessage `json:"effort"`
	Message     *struct {
		ID         string          `json:"id"`
		Model      string          `json:"model"`
		StopReason string          `json:"stop_reason"`
		Usage      *usage          `json:"usage"`
		Content    json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
	TotalCostUSD  *float64        `json:"totalCostUSD"`
	Shape         *struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"shape"`
	Attachment *struct {
		Type         string   `json:"type"`
		AddedNames   []string `json:"addedNames"`
		RemovedNames []string `json:"removedNames"`
		Names        []string `json:"names"`
	} `json:"attachment"`
}

type usage struct {
	Input      int64 `json:"input_tokens"`
	Output     int64 `json:"output_tokens"`
	CacheRead  int64 `json:"cache_read_input_tokens"`
	CacheWrite int64 `json:"cache_creation_input_tokens"`
}

// block is one content block of a message: a tool call or its result.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
}

// wanted are the markers of the lines the reader decodes; every other line
// (system prompts, request blobs, snapshots) is counted and skipped unparsed.
var wanted = [][]byte{
	[]byte(`"type":"assistant"`), []byte(`"type":"user"`), []byte(`"type":"cost-state"`),
	[]byte(`"type":"api-request-shape"`), []byte(`"deferred_tools_delta"`), []byte(`"skill_listing"`),
	[]byte(`"compact_boundary"`),
}

// line handles one complete line (without its newline).
func (r *Reader) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if b[0] != '{' {
		r.st.Skipped++
		return
	}
	r.st.Entries++
	want := false
	for _, m := range wanted {
		if bytes.Contains(b, m) {
			want = true
			break
		}
	}
	if !want {
		return
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		r.st.Skipped++
		return
	}
	if r.st.SessionID == "" && e.SessionID != "" {
		r.st.SessionID = e.SessionID
	}
	if r.st.CWD == "" && e.CWD != "" {
		r.st.CWD = e.CWD
	}
	if r.st.Started == "" && e.Timestamp != "" {
		r.st.Started = e.Timestamp
	}
	switch e.Type {
	case "assistant":
		r.assistant(&e)
	case "user":
		r.user(&e)
	case "cost-state":
		if e.TotalCostUSD != nil {
			c := *e.TotalCostUSD
			r.st.Cost, r.st.CostFresh = &c, true
		}
	case "api-request-shape":
		if e.Shape != nil {
			r.st.Offered = r.st.Offered[:0]
			for _, t := range e.Shape.Tools {
				if t.Name != "" && t.Name != "DeferredToolPlaceholder" && len(r.st.Offered) < maxNames {
					r.st.Offered = append(r.st.Offered, t.Name)
				}
			}
		}
	case "attachment":
		if a := e.Attachment; a != nil {
			switch a.Type {
			case "deferred_tools_delta":
				r.st.Deferred = applyDelta(r.st.Deferred, a.AddedNames, a.RemovedNames)
			case "skill_listing":
				r.st.Skills = applyDelta(nil, a.Names, nil)
			}
		}
	case "system":
		if e.Subtype == "compact_boundary" {
			r.st.Context = nil // unknown until the next reply
		}
	}
}

// applyDelta adds and removes names, keeping the order they came in.
func applyDelta(list, added, removed []string) []string {
	out := list[:0:0]
	for _, n := range list {
		if !contains(removed, n) {
			out = append(out, n)
		}
	}
	for _, n := range added {
		if n != "" && !contains(out, n) && len(out) < maxNames {
			out = append(out, n)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (r *Reader) assistant(e *entry) {
	m := e.Message
	if m == nil {
		return
	}
	at := msOf(e.Timestamp)
	if !e.IsSidechain {
		r.st.TurnEnded = m.StopReason != "" && m.StopReason != "tool_use"
	}
	if m.Model != "" && m.Model != syntheticID && !e.IsSidechain {
		r.st.Model = m.Model
		var eff string
		if json.Unmarshal(e.Effort, &eff) == nil && eff != "" {
			r.st.Effort = eff
		}
	}
	if u := m.Usage; u != nil && m.ID != "" && m.Model != syntheticID {
		r.count(m.ID, Totals{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite})
		if !e.IsSidechain {
			tok := u.Input + u.CacheRead + u.CacheWrite // what Claude's used_percentage counts
			r.st.Context = &tok
		}
	}
	var blocks []block
	if json.Unmarshal(m.Content, &blocks) != nil {
		return // a string: text only
	}
	for _, bl := range blocks {
		if bl.Type != "tool_use" || bl.ID == "" || bl.Name == "" {
			continue
		}
		if _, seen := r.st.Pending[bl.ID]; seen || r.called(bl.ID) {
			continue // the same message's block written again
		}
		var in struct {
			FilePath     string          `json:"file_path"`
			NotebookPath string          `json:"notebook_path"`
			Offset       json.RawMessage `json:"offset"`
			Limit        json.RawMessage `json:"limit"`
		}
		json.Unmarshal(bl.Input, &in)
		p := pending{Tool: bl.Name}
		if writes(bl.Name) {
			p.Path = in.FilePath
			if bl.Name == "NotebookEdit" {
				p.Path = in.NotebookPath
			}
			if p.Path != "" && !filepath.IsAbs(p.Path) && r.st.CWD != "" {
				p.Path = filepath.Join(r.st.CWD, p.Path)
			}
		}
		action := actionOf(bl.Name)
		if bl.Name == "Read" && (len(in.Offset) > 0 || len(in.Limit) > 0) {
			action = "read-part"
		}
		if len(r.st.Pending) < maxPending {
			r.st.Pending[bl.ID] = p
		}
		r.st.Calls = append(r.st.Calls, Call{ID: bl.ID, Tool: shownName(bl.Name), Action: action, Outcome: status.Pending, At: at})
		if len(r.st.Calls) > status.MaxRecent {
			r.st.Calls = append(r.st.Calls[:0], r.st.Calls[len(r.st.Calls)-status.MaxRecent:]...)
		}
	}
}

// count adds a reply's usage once per message id: Claude writes one entry
// per content block, each with the message's usage; the latest replaces
// what an earlier one of the same id counted.
func (r *Reader) count(id string, u Totals) {
	for i := len(r.st.Counted) - 1; i >= 0; i-- {
		if c := &r.st.Counted[i]; c.ID == id {
			if c.Usage != u {
				r.st.Totals.add(c.Usage, -1)
				r.st.Totals.add(u, 1)
				c.Usage = u
				r.st.CostFresh = false
			}
			return
		}
	}
	r.st.Totals.add(u, 1)
	r.st.Counted = append(r.st.Counted, counted{ID: id, Usage: u})
	if len(r.st.Counted) > keptIDs {
		r.st.Counted = append(r.st.Counted[:0], r.st.Counted[len(r.st.Counted)-keptIDs:]...)
	}
	if u != (Totals{}) {
		r.st.CostFresh = false // a reply the last cost-state does not cover
	}
}

func (r *Reader) called(id string) bool {
	for _, c := range r.st.Calls {
		if c.ID == id {
			return true
		}
	}
	return false
}

func (r *Reader) user(e *entry) {
	if e.Message == nil {
		return
	}
	if !e.IsSidechain {
		r.st.TurnEnded = false
	}
	var blocks []block
	if json.Unmarshal(e.Message.Content, &blocks) != nil {
		return // a prompt
	}
	at := msOf(e.Timestamp)
	for _, bl := range blocks {
		if bl.Type != "tool_result" || bl.ToolUseID == "" {
			continue
		}
		p, ok := r.st.Pending[bl.ToolUseID]
		delete(r.st.Pending, bl.ToolUseID)
		outcome := status.OK
		if bl.IsError {
			outcome = status.Error
		}
		for i := range r.st.Calls {
			if r.st.Calls[i].ID == bl.ToolUseID {
				r.st.Calls[i].Outcome = outcome
			}
		}
		if !ok || bl.IsError || p.Path == "" {
			continue
		}
		var res struct {
			Type string `json:"type"` // Write: create or update
		}
		json.Unmarshal(e.ToolUseResult, &res)
		o := r.st.Outputs[p.Path]
		o.Created = o.Created || res.Type == "create" // created once stays created
		o.At = at
		r.st.Outputs[p.Path] = o
	}
}

// writes reports whether a tool writes the file its path argument names.
func writes(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// actionOf names what a call did, from a fixed list, never from an argument.
func actionOf(tool string) string {
	switch tool {
	case "Read":
		return "read"
	case "Write":
		return "write"
	case "Edit", "NotebookEdit":
		return "edit"
	case "MultiEdit":
		return "multi-edit"
	case "Bash", "PowerShell":
		return "run"
	case "Grep", "Glob":
		return "search"
	case "LS":
		return "list"
	}
	return ""
}

// shownName is a tool's name as the recent list shows it: an MCP tool
// (mcp__server__tool) as server/tool.
func shownName(tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if server, name, ok := strings.Cut(rest, "__"); ok && server != "" && name != "" {
			return server + "/" + name
		}
	}
	return tool
}

// msOf is an ISO time in unix ms, 0 when it is not one.
func msOf(iso string) int64 {
	t, err := time.Parse(time.RFC3339Nano, iso)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// cursorFormat changes when the saved shape does; an old cursor is dropped.
const cursorFormat = 2

// cursor is where a Reader stopped and what it knew then.
type cursor struct {
	Kind     string `json:"kind"` // "claude": the cursors folder also holds Pi's
	Format   int    `json:"format"`
	Path     string `json:"path"`
	Dev      uint64 `json:"dev"`
	Ino      uint64 `json:"ino"`
	Offset   int64  `json:"offset"`
	TailHash uint64 `json:"tailHash"`
	TailLen  int    `json:"tailLen"`
	State    state  `json:"state"`
}

const cursorKind = "claude"

// MarshalCursor saves where the Reader stands: small whatever the file's
// size (bounded lists and the outputs).
func (r *Reader) MarshalCursor() ([]byte, error) {
	return json.Marshal(cursor{Kind: cursorKind, Format: cursorFormat, Path: r.path, Dev: r.dev, Ino: r.ino,
		Offset: r.offset, TailHash: r.tailHash, TailLen: r.tailLen, State: r.st})
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes. A
// cursor for another path, kind or format is an error: read afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursor
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	switch {
	case c.Kind != cursorKind || c.Format != cursorFormat:
		return nil, errors.New("cursor: not a Claude cursor of this format")
	case c.Path != path:
		return nil, errors.New("cursor: for another file")
	case c.Offset < 0 || c.TailLen < 0 || c.TailLen > tailLen || int64(c.TailLen) > c.Offset || (c.Offset > 0 && c.TailLen == 0):
		return nil, errors.New("cursor: out of range")
	}
	r := NewReader(path)
	r.dev, r.ino, r.offset, r.size, r.tailHash, r.tailLen, r.st = c.Dev, c.Ino, c.Offset, c.Offset, c.TailHash, c.TailLen, c.State
	if r.st.Pending == nil {
		r.st.Pending = map[string]pending{}
	}
	if r.st.Outputs == nil {
		r.st.Outputs = map[string]Output{}
	}
	return r, nil
}

// hashOf is FNV-1a of b: enough to notice a file rewritten before the
// cursor, and nothing of its content kept.
func hashOf(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
