// Package transcript reads a Claude Code transcript
// ($HOME/.claude/projects/<cwd with / as ->/<session id>.jsonl) into the
// status file's terms, in the same shape as the Pi reader (jig/transcript's
// Derived), so the same engine builds a Claude session's status.
//
// A session's subagents (Task/Agent calls) have transcripts of their own,
// <session id>/subagents/agent-*.jsonl beside the session's: the reader reads
// them too, for their usage, calls and written files.
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
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"jig/status"
	base "jig/transcript"
)

// Limits.
const (
	MaxLine     = 32 << 20 // a longer line is skipped unread
	keptIDs     = 64       // message ids remembered for deduplicating usage
	maxPending  = 200      // tool calls waiting for their result
	maxNames    = 256      // offered and deferred tools, and skills
	maxSubagent = 256      // subagent transcripts followed; later ones count from Claude's next totals
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

// counted is one message id and the usage counted for it. Extra: its usage
// is in the totals beside Claude's own (read before Claude's latest totals,
// or a subagent's reply after them).
type counted struct {
	ID    string `json:"id"`
	Usage Totals `json:"usage"`
	At    int64  `json:"at"` // unix ms
	Sub   bool   `json:"sub,omitempty"`
	Extra bool   `json:"extra"`
}

// Call is one tool call: a name, what kind of action, how it ended.
type Call = base.Call

// pending is a call waiting for its result.
type pending = base.Pending

// Output is a file a successful write or edit touched.
type Output = base.Written

// state is everything a Reader knows; it is also the cursor's body.
type state struct {
	// The calls come first: a hook that asks only whether a call was read
	// decodes them alone (transcript.Lazy.PeekOutcome).
	Calls   []Call             `json:"calls"` // the newest MaxRecent, oldest first (by time)
	Pending map[string]pending `json:"pending"`

	SessionID string    `json:"sessionId"`
	CWD       string    `json:"cwd"`
	Started   string    `json:"started"`
	Entries   int       `json:"entries"`
	Skipped   int       `json:"skipped"`
	Model     string    `json:"model"`
	ModelName [2]string `json:"modelName"` // a model id and the display name Claude gives it
	Effort    string    `json:"effort"`
	TurnEnded bool      `json:"turnEnded"` // the latest entry is a reply that ends the turn
	MainAt    int64     `json:"mainAt"`    // the latest time the session's own transcript says (unix ms)

	// Totals is Claude's own session totals at its latest cost-state (every
	// request it paid for) plus the replies read since; before any
	// cost-state, the replies read.
	Totals  Totals    `json:"totals"`
	Said    bool      `json:"said"`    // a cost-state gave Claude's totals
	SaidAt  int64     `json:"saidAt"`  // MainAt when it did: a subagent's reply up to then is in them
	Counted []counted `json:"counted"` // the newest message ids, oldest first
	Context *int64    `json:"context"` // tokens of the latest reply's context, or a compaction's postTokens

	Cost      *float64 `json:"cost"`      // the latest cost-state's total
	CostFresh bool     `json:"costFresh"` // no reply with usage came after it

	Offered  []string `json:"offered"`  // the tools of the latest request's shape
	Deferred []string `json:"deferred"` // tools the model can load by ToolSearch
	Skills   []string `json:"skills"`

	Outputs map[string]Output `json:"outputs"`
}

// file is where the reader stands in one file: the session's transcript,
// or (Name set) a subagent's in the subagents folder.
type file struct {
	Name string `json:"name,omitempty"`
	base.FilePos
	Ended bool `json:"ended,omitempty"` // a subagent's: its latest entry is a reply that ends its turn
}

// Reader reads one session's transcript, and its subagents',
// incrementally. It is not safe for concurrent use.
type Reader struct {
	path string
	main file
	subs []file
	cur  *file  // the file being read
	from *where // where the cursor it was restored from stood
	st   state
	lazy base.Lazy // st as a restored cursor holds it, decoded at first use (load)
	buf  []byte
}

// load decodes the state a cursor left lazy: false when it does not
// decode, the reader reset to read afresh.
func (r *Reader) load() bool {
	if !r.lazy.Waiting() {
		return true
	}
	var st state
	if !r.lazy.Take(&st, nil) {
		r.reset()
		return false
	}
	if st.Pending == nil {
		st.Pending = map[string]pending{}
	}
	if st.Outputs == nil {
		st.Outputs = map[string]Output{}
	}
	r.st = st
	return true
}

// state is what the reader knows, decoded; a cursor's that did not decode
// is read afresh first.
func (r *Reader) state() *state {
	if !r.load() {
		r.update()
	}
	return &r.st
}

// where is where a reader stands in its files.
type where struct {
	main file
	subs []file
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

// Offset is how many bytes of the session's transcript have been
// consumed: complete lines only.
func (r *Reader) Offset() int64 { return r.main.Offset }

// Moved reports whether r has read further than the cursor it was
// restored from, in the session's transcript or a subagent's (a reader
// not restored from one has always moved).
func (r *Reader) Moved() bool {
	if r.from == nil || r.from.main != r.main || len(r.from.subs) != len(r.subs) {
		return true
	}
	for i, f := range r.from.subs {
		if f != r.subs[i] {
			return true
		}
	}
	return false
}

// errReplaced: a file was replaced, shrank or changed before the cursor.
var errReplaced = errors.New("transcript replaced")

// Update reads what was appended since the last call, to the session's
// transcript and to its subagents'. A last line without its newline is
// left for later: Claude may be writing it. When a file was replaced,
// shrank or changed before the cursor, everything is read again from the
// start.
func (r *Reader) Update() error {
	err := r.update()
	if errors.Is(err, errReplaced) {
		r.reset()
		err = r.update()
	}
	return err
}

func (r *Reader) update() error {
	if err := r.updateFile(&r.main, r.path, false); err != nil {
		return err
	}
	return r.updateSubagents()
}

// SubagentDir is where Claude writes the transcripts of a session's
// subagents: <session id>/subagents beside the session's transcript.
func SubagentDir(transcript string) string {
	return filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "subagents")
}

// updateSubagents reads on in every subagent transcript (agent-*.jsonl); a
// file that cannot be read now is read at the next Update.
func (r *Reader) updateSubagents() error {
	dir := SubagentDir(r.path)
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil // no subagent yet
	}
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || !strings.HasPrefix(name, "agent-") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		i := slices.IndexFunc(r.subs, func(f file) bool { return f.Name == name })
		if i < 0 {
			if len(r.subs) >= maxSubagent {
				continue
			}
			r.subs = append(r.subs, file{Name: name})
			i = len(r.subs) - 1
		}
		f := &r.subs[i]
		if fi, err := de.Info(); err != nil || (f.Offset > 0 && fi.Size() == f.Offset && inode(fi) == f.Ino) {
			continue // nothing new (a stat, not an open, for each finished subagent)
		}
		if err := r.updateFile(f, filepath.Join(dir, name), true); errors.Is(err, errReplaced) {
			return err
		}
	}
	return nil
}

func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// updateFile reads on in one file from where fc stands.
func (r *Reader) updateFile(fc *file, path string, sub bool) error {
	f, size, dev, ino, err := base.OpenFollowed(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if fc.Offset > 0 && !fc.Same(f, dev, ino, size) {
		return errReplaced
	}
	fc.Dev, fc.Ino = dev, ino
	if size == fc.Offset {
		return nil // nothing new: the hook's usual case
	}
	if !r.load() {
		return errReplaced // the cursor's state did not decode: read it all again
	}
	r.cur = fc
	fc.Offset, r.buf, err = base.Lines(f, fc.Offset, size, r.buf, lineLimit,
		func(b []byte, _ int64) error {
			r.line(b, sub)
			return nil
		},
		func(int64) { r.st.Skipped++ })
	if err != nil {
		return err
	}
	return fc.HashTail(f)
}

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// entry is the part of a transcript line the reader uses. Fields whose
// type varies between entries are raw and decoded where needed.
type entry struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	Compact     *compactMeta    `json:"compactMetadata"`
	Timestamp   string          `json:"timestamp"`
	SessionID   string          `json:"sessionId"`
	CWD         string          `json:"cwd"`
	IsSidechain bool            `json:"isSidechain"`
	AgentID     string          `json:"agentId"`
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
	ModelUsage    map[string]struct {
		Input      int64 `json:"inputTokens"`
		Output     int64 `json:"outputTokens"`
		CacheRead  int64 `json:"cacheReadInputTokens"`
		CacheWrite int64 `json:"cacheCreationInputTokens"`
	} `json:"modelUsage"`
	Shape *struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"shape"`
	Attachment *struct {
		Type         string   `json:"type"`
		AddedNames   []string `json:"addedNames"`
		RemovedNames []string `json:"removedNames"`
		Names        []string `json:"names"`
		Identity     *struct {
			ModelID       string `json:"modelId"`
			MarketingName string `json:"marketingName"`
		} `json:"identity"`
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
// System entries are small and timed: the last before a cost-state says
// when Claude's totals were taken.
var wanted = [][]byte{
	[]byte(`"type":"assistant"`), []byte(`"type":"user"`), []byte(`"type":"cost-state"`),
	[]byte(`"type":"api-request-shape"`), []byte(`"deferred_tools_delta"`), []byte(`"skill_listing"`),
	[]byte(`"type":"system"`), []byte(`"marketingName"`),
}

// line handles one complete line (without its newline); sub: of a
// subagent's transcript, which says nothing of the session's model,
// context, tools or turn.
func (r *Reader) line(b []byte, sub bool) {
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
	if sub || e.AgentID != "" {
		e.IsSidechain = true // a subagent's entry, wherever it is
	} else if at := base.MsOf(e.Timestamp); at > r.st.MainAt {
		r.st.MainAt = at
	}
	switch {
	case e.Type == "assistant":
		r.assistant(&e, sub)
	case e.Type == "user":
		r.user(&e, sub)
	case e.IsSidechain:
		// a subagent's shapes, listings and compactions are its own
	case e.Type == "cost-state":
		r.costState(&e)
	case e.Type == "api-request-shape":
		if e.Shape != nil {
			r.st.Offered = r.st.Offered[:0]
			for _, t := range e.Shape.Tools {
				if t.Name != "" && t.Name != "DeferredToolPlaceholder" && len(r.st.Offered) < maxNames {
					r.st.Offered = append(r.st.Offered, t.Name)
				}
			}
		}
	case e.Type == "attachment":
		if a := e.Attachment; a != nil {
			switch a.Type {
			case "deferred_tools_delta":
				r.st.Deferred = applyDelta(r.st.Deferred, a.AddedNames, a.RemovedNames)
			case "skill_listing":
				r.st.Skills = applyDelta(nil, a.Names, nil)
			case "model":
				if id := a.Identity; id != nil && id.ModelID != "" && id.MarketingName != "" {
					r.st.ModelName = [2]string{id.ModelID, id.MarketingName}
				}
			}
		}
	case e.Type == "system":
		if e.Subtype == "compact_boundary" {
			r.st.Context = e.Compact.after()
		}
	}
}

// compactMeta is what Claude records of a compaction: the context's
// tokens before it and after it.
type compactMeta struct {
	PreTokens  *int64 `json:"preTokens"`
	PostTokens *int64 `json:"postTokens"`
}

// after is the context a compaction left, as Claude counts it
// (postTokens), nil when it does not say or says what is no count.
func (m *compactMeta) after() *int64 {
	if m == nil || m.PostTokens == nil || *m.PostTokens < 0 {
		return nil
	}
	n := *m.PostTokens
	return &n
}

// costState takes Claude's own totals: its cost, and its session totals
// (every request it paid for: the conversation's, subagents', compaction,
// titles and other side requests), which replace the replies counted so
// far. A subagent's reply written after the latest entry of the session's
// transcript is not in them, and stays counted.
func (r *Reader) costState(e *entry) {
	if e.TotalCostUSD != nil {
		c := *e.TotalCostUSD
		r.st.Cost, r.st.CostFresh = &c, true
	}
	if e.ModelUsage == nil {
		return
	}
	var t Totals
	for _, u := range e.ModelUsage {
		if u.Input < 0 || u.Output < 0 || u.CacheRead < 0 || u.CacheWrite < 0 {
			return // not Claude's figures: the totals stay as they were
		}
		t.add(Totals{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}, 1)
	}
	r.st.Totals, r.st.Said, r.st.SaidAt = t, true, r.st.MainAt
	for i := range r.st.Counted {
		c := &r.st.Counted[i]
		c.Extra = c.Sub && c.At > r.st.SaidAt
		if c.Extra {
			r.st.Totals.add(c.Usage, 1)
			if c.Usage != (Totals{}) {
				r.st.CostFresh = false
			}
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

func (r *Reader) assistant(e *entry, sub bool) {
	m := e.Message
	if m == nil {
		return
	}
	at := base.MsOf(e.Timestamp)
	ends := m.StopReason != "" && m.StopReason != "tool_use"
	switch {
	case sub:
		r.cur.Ended = ends
	case !e.IsSidechain:
		r.st.TurnEnded = ends
	}
	if m.Model != "" && m.Model != syntheticID && !e.IsSidechain {
		r.st.Model = m.Model
		var eff string
		if json.Unmarshal(e.Effort, &eff) == nil && eff != "" {
			r.st.Effort = eff
		}
	}
	if u := m.Usage; u != nil && m.ID != "" && m.Model != syntheticID {
		r.count(m.ID, Totals{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}, at, sub)
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
		if e.IsSidechain {
			action = subagentAction(action)
		}
		r.addCall(Call{ID: bl.ID, Tool: base.ShownName(bl.Name), Action: action, Outcome: status.Pending, At: at})
	}
}

// addCall puts a call among the newest MaxRecent in time order: the
// session's transcript and its subagents' are read one after the other.
func (r *Reader) addCall(c Call) {
	i := len(r.st.Calls)
	for i > 0 && r.st.Calls[i-1].At > c.At {
		i--
	}
	r.st.Calls = slices.Insert(r.st.Calls, i, c)
	if len(r.st.Calls) > status.MaxRecent {
		r.st.Calls = append(r.st.Calls[:0], r.st.Calls[len(r.st.Calls)-status.MaxRecent:]...)
	}
}

// count adds a reply's usage once per message id: Claude writes one entry
// per content block, each with the message's usage; the latest replaces
// what an earlier one of the same id counted. A subagent's reply from
// before Claude's latest totals (sub, at) is in them already.
func (r *Reader) count(id string, u Totals, at int64, sub bool) {
	for i := len(r.st.Counted) - 1; i >= 0; i-- {
		if c := &r.st.Counted[i]; c.ID == id {
			if c.Usage != u && c.Extra {
				r.st.Totals.add(c.Usage, -1)
				r.st.Totals.add(u, 1)
				r.st.CostFresh = false
			}
			c.Usage = u
			return
		}
	}
	extra := !(sub && r.st.Said && at <= r.st.SaidAt)
	if extra {
		r.st.Totals.add(u, 1)
		if u != (Totals{}) {
			r.st.CostFresh = false // a reply the last cost-state does not cover
		}
	}
	r.st.Counted = append(r.st.Counted, counted{ID: id, Usage: u, At: at, Sub: sub, Extra: extra})
	if len(r.st.Counted) > keptIDs {
		r.st.Counted = append(r.st.Counted[:0], r.st.Counted[len(r.st.Counted)-keptIDs:]...)
	}
}

// subagentAction marks a subagent's call in the recent list: its action
// after "subagent:", or "subagent" for a tool with none.
func subagentAction(action string) string {
	if action == "" {
		return "subagent"
	}
	return "subagent:" + action
}

func (r *Reader) called(id string) bool {
	for _, c := range r.st.Calls {
		if c.ID == id {
			return true
		}
	}
	return false
}

func (r *Reader) user(e *entry, sub bool) {
	if e.Message == nil {
		return
	}
	switch {
	case sub:
		r.cur.Ended = false
	case !e.IsSidechain:
		r.st.TurnEnded = false
	}
	var blocks []block
	if json.Unmarshal(e.Message.Content, &blocks) != nil {
		return // a prompt
	}
	at := base.MsOf(e.Timestamp)
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
		o.Created = OutputAction(res.Type == "create", o.Created) == status.Created
		o.At = at
		r.st.Outputs[p.Path] = o
	}
}

// OutputAction is what a write did to a file, for every reader of Claude's
// sessions (the status file and `jig claude show`), by Pi's rule: created
// when this write created it or an earlier one did (created once stays
// created), else changed.
func OutputAction(created, wasCreated bool) string {
	if created || wasCreated {
		return status.Created
	}
	return status.Changed
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

// cursorFormat changes when the saved shape does; an old cursor is dropped.
const cursorFormat = 4

// cursorHead is where a Reader stopped: the cursor's first line
// (transcript.JoinCursor); the state it knew is the second.
type cursorHead struct {
	base.CursorHead
	file
	Subagents []file `json:"subagents"`
}

const cursorKind = "claude" // the cursors folder also holds Pi's

// MarshalCursor saves where the Reader stands: small whatever the file's
// size (bounded lists and the outputs).
func (r *Reader) MarshalCursor() ([]byte, error) {
	st := r.state()
	head := cursorHead{CursorHead: base.CursorHead{Kind: cursorKind, Format: cursorFormat, Path: r.path}, file: r.main, Subagents: r.subs}
	return base.JoinCursor(head, st)
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes,
// its state decoded at first use. A cursor for another path, kind or
// format is an error: read afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursorHead
	st, err := base.SplitCursor(data, &c)
	if err != nil {
		return nil, err
	}
	if err := c.Check(cursorKind, cursorFormat, path, "Claude"); err != nil {
		return nil, err
	}
	switch {
	case !c.file.Valid() || len(c.Subagents) > maxSubagent:
		return nil, errors.New("cursor: out of range")
	}
	for _, f := range c.Subagents {
		if !f.Valid() || f.Name == "" || filepath.Base(f.Name) != f.Name {
			return nil, errors.New("cursor: out of range")
		}
	}
	r := NewReader(path)
	r.main, r.subs = c.file, c.Subagents
	r.lazy.Set(st)
	r.from = &where{main: c.file, subs: slices.Clone(c.Subagents)}
	return r, nil
}
