// Package rollout reads a Codex CLI rollout
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl) into
// the status file's terms, in the same shape as the Pi reader (jig/transcript's
// Derived), so the same engine builds a Codex session's status.
//
// It reads incrementally: each Update reads only the lines appended since
// the last one, and a Reader saves where it stopped (MarshalCursor) so a
// one-shot hook process carries on from there (RestoreReader). It keeps
// names, paths and numbers only: a call's arguments and output are never
// decoded, and of a file change only its path and kind are.
package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"jig/status"
	"jig/transcript"
)

// Limits.
const (
	MaxLine  = 32 << 20 // a longer line is skipped unread
	maxNames = 256      // tool names remembered as called
)

// Totals are Codex's token counts for the whole session (total_token_usage):
// Input includes the cached and cache-write tokens, as Codex counts them.
type Totals struct {
	Input      int64 `json:"input_tokens"`
	Cached     int64 `json:"cached_input_tokens"`
	CacheWrite int64 `json:"cache_write_input_tokens"`
	Output     int64 `json:"output_tokens"`
	Reasoning  int64 `json:"reasoning_output_tokens"`
	Total      int64 `json:"total_tokens"`
}

// Call is one tool call: a name, what kind of action, how it ended.
type Call = transcript.Call

// Output is a file a successful change touched.
type Output = transcript.Written

// state is everything a Reader knows; it is also the cursor's body.
type state struct {
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Started   string `json:"started"`
	Provider  string `json:"provider"`
	Entries   int    `json:"entries"`
	Skipped   int    `json:"skipped"`
	Model     string `json:"model"`
	Effort    string `json:"effort"`

	Totals  *Totals `json:"totals"`  // nil until Codex counted a response
	Context *int64  `json:"context"` // the latest response's total_tokens; nil after a compaction
	Window  *int64  `json:"window"`  // model_context_window
	// RateLimits: the account's windows token_count said last; nil until
	// it said one jig files (five hours, a week).
	RateLimits *status.RateLimits `json:"rateLimits"`
	// Replied: the latest assistant message has its response's usage
	// counted after it (the turn's last token count is in).
	Replied bool `json:"replied"`

	Called  []string          `json:"called"` // tool names the model called, in order
	Calls   []Call            `json:"calls"`  // the newest MaxRecent, oldest first
	Outputs map[string]Output `json:"outputs"`
	// Gone: files the session created and then deleted (or moved away),
	// which are no outputs; the newest 2 × MaxOutputsPerKind.
	Gone []string `json:"gone,omitempty"`
}

// Reader reads one rollout incrementally. It is not safe for concurrent use.
type Reader struct {
	path string
	pos  transcript.FilePos
	size int64
	st   state
	buf  []byte
}

// NewReader prepares to read the rollout at path. It does no I/O.
func NewReader(path string) *Reader {
	r := &Reader{path: path}
	r.reset()
	return r
}

func (r *Reader) reset() {
	*r = Reader{path: r.path, buf: r.buf}
	r.st.Outputs = map[string]Output{}
}

// Path is the rollout's path.
func (r *Reader) Path() string { return r.path }

// Offset is how many bytes have been consumed: complete lines only.
func (r *Reader) Offset() int64 { return r.pos.Offset }

// Update reads what was appended since the last call. The file is opened
// without blocking (a fifo planted there cannot hang a hook) and must be a
// regular file; lines longer than MaxLine are skipped unread. A last line
// without its newline is left for later: Codex may be writing it. A file
// that was replaced, shrank or changed before the cursor is read again
// from the start.
func (r *Reader) Update() error {
	f, size, dev, ino, err := transcript.OpenFollowed(r.path)
	if err != nil {
		return err
	}
	defer f.Close()
	if r.pos.Offset > 0 && !r.pos.Same(f, dev, ino, size) {
		r.reset()
	}
	r.pos.Dev, r.pos.Ino, r.size = dev, ino, size
	if r.size == r.pos.Offset {
		return nil // nothing new: the hook's usual case
	}
	r.pos.Offset, r.buf, err = transcript.Lines(f, r.pos.Offset, r.size, r.buf, lineLimit,
		func(b []byte, _ int64) error {
			r.line(b)
			return nil
		},
		func(int64) { r.st.Skipped++ })
	if err != nil {
		return err
	}
	return r.pos.HashTail(f)
}

// Current reports whether the rollout at path is still exactly what the
// cursor read: the same file, nothing appended, the bytes before the
// cursor unchanged. It reads the cursor's position, not what it knew: a
// hook that finds the rollout current has nothing new to derive.
func Current(path string, cursorData []byte) bool {
	c, ok := cursorHead(cursorData)
	if !ok || c.Path != path || c.Offset <= 0 {
		return false
	}
	f, size, dev, ino, err := transcript.OpenFollowed(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return size == c.Offset && c.Same(f, dev, ino, size)
}

// cursorHead reads a cursor's position, the fields MarshalCursor writes
// before the state, and stops there: the state is neither decoded nor
// read.
func cursorHead(data []byte) (c cursor, ok bool) {
	var h struct {
		transcript.CursorHead
		transcript.FilePos
	}
	if transcript.DecodeHead(data, &h) != nil {
		return c, false
	}
	c.CursorHead, c.FilePos = h.CursorHead, h.FilePos
	return c, c.Kind == cursorKind && c.Format == cursorFormat && c.Valid()
}

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// entry is one rollout line: {timestamp, type, payload}.
type entry struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// The payloads the reader decodes, one shape per line type: a call's
// arguments, input and output are never named here, so never decoded.
type (
	sessionMeta struct {
		ID            string `json:"id"`
		Timestamp     string `json:"timestamp"`
		CWD           string `json:"cwd"`
		ModelProvider string `json:"model_provider"`
	}
	turnContext struct {
		CWD               string  `json:"cwd"`
		Model             string  `json:"model"`
		Effort            *string `json:"effort"`
		CollaborationMode *struct {
			Settings *struct {
				ReasoningEffort *string `json:"reasoning_effort"`
			} `json:"settings"`
		} `json:"collaboration_mode"`
	}
	usageRecord struct {
		Usage       *Totals `json:"usage"`
		ThreadUsage *Totals `json:"thread_token_usage"`
	}
	responseItem struct {
		Type   string `json:"type"`
		Name   string `json:"name"`
		CallID string `json:"call_id"`
		Role   string `json:"role"`
	}
	eventMsg struct {
		Type string `json:"type"`
	}
	tokenCount struct {
		Info *struct {
			Total              *Totals `json:"total_token_usage"`
			Last               *Totals `json:"last_token_usage"`
			ModelContextWindow *int64  `json:"model_context_window"`
		} `json:"info"`
		RateLimits *struct {
			Primary   *rateWindow `json:"primary"`
			Secondary *rateWindow `json:"secondary"`
		} `json:"rate_limits"`
	}
	// rateWindow is one of Codex's rate limit windows.
	rateWindow struct {
		UsedPercent     *float64 `json:"used_percent"`
		WindowMinutes   *int64   `json:"window_minutes"`
		ResetsAt        *float64 `json:"resets_at"`         // seconds since the epoch
		ResetsInSeconds *float64 `json:"resets_in_seconds"` // older Codex: from the line's time
	}
	taskStarted struct {
		ModelContextWindow *int64 `json:"model_context_window"`
	}
	// itemCompleted is how a call went and, for a file change, which
	// paths it touched and how (never the content).
	itemCompleted struct {
		Item *struct {
			Type     string `json:"type"`
			ID       string `json:"id"`
			Status   string `json:"status"`
			ExitCode *int   `json:"exit_code"`
			Changes  map[string]struct {
				Type     string `json:"type"` // add | update | delete
				MovePath string `json:"move_path"`
			} `json:"changes"`
		} `json:"item"`
	}
)

// wanted are the markers of the lines the reader decodes; every other line
// (messages, reasoning, world state) is counted and skipped unparsed. A
// marker inside a JSON string has its quotes escaped, so it never matches.
var wanted = []marker{
	{[]byte(`"type"`), [][]byte{[]byte(`"session_meta"`), []byte(`"turn_context"`), []byte(`"token_usage_record"`),
		[]byte(`"compacted"`), []byte(`"function_call`), []byte(`"custom_tool_call`), []byte(`"local_shell_call`),
		[]byte(`"web_search_call`), []byte(`"token_count"`), []byte(`"task_started"`), []byte(`"item_completed"`),
		[]byte(`"context_compacted"`)}},
	{[]byte(`"role"`), [][]byte{[]byte(`"assistant"`)}},
}

// marker is a key of a line and how the string values it looks for begin,
// matched however the line is spaced: Codex writes compact JSON, but a
// rollout is JSON, and `"type": "session_meta"` says the same.
type marker struct {
	key    []byte
	values [][]byte
}

// in says whether b holds the key with one of the values.
func (m marker) in(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], m.key)
		if j < 0 {
			return false
		}
		i += j + len(m.key)
		rest := bytes.TrimLeft(b[i:], " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if slices.ContainsFunc(m.values, func(v []byte) bool { return bytes.HasPrefix(rest, v) }) {
			return true
		}
	}
}

func markedBy(markers []marker) func(b []byte) bool {
	return func(b []byte) bool { return slices.ContainsFunc(markers, func(m marker) bool { return m.in(b) }) }
}

var (
	isWanted  = markedBy(wanted)
	isBlocked = markedBy(blockedOutputs)
)

// line handles one complete line (without its newline). A line that is
// not JSON, or whose fields the reader uses have another shape, is
// counted as skipped and changes nothing.
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
	if !isWanted(b) {
		return
	}
	var e entry
	if json.Unmarshal(b, &e) != nil || r.entry(&e, b) != nil {
		r.st.Skipped++
	}
}

// blockedOutputs begin the output Codex gives the model for a call a
// PreToolUse hook refused: a prefix matched on the line, never decoded.
var blockedOutputs = []marker{{[]byte(`"output"`),
	[][]byte{[]byte(`"Command blocked by PreToolUse hook: `), []byte(`"Tool call blocked by PreToolUse hook: `)}}}

func (r *Reader) entry(e *entry, raw []byte) error {
	at := transcript.MsOf(e.Timestamp)
	switch e.Type {
	case "session_meta":
		var p sessionMeta
		if err := json.Unmarshal(e.Payload, &p); err != nil || r.st.SessionID != "" {
			return err
		}
		r.st.SessionID, r.st.Started, r.st.CWD, r.st.Provider = p.ID, p.Timestamp, p.CWD, p.ModelProvider
	case "turn_context":
		var p turnContext
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
		r.turnContext(&p)
	case "token_usage_record":
		var p usageRecord
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
		r.count(p.ThreadUsage, p.Usage, nil)
	case "compacted":
		r.st.Context = nil // unknown until the next response
	case "response_item":
		var p responseItem
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
		blocked := isBlocked(raw)
		r.responseItem(&p, blocked, at)
	case "event_msg":
		return r.event(e.Payload, at)
	}
	return nil
}

func (r *Reader) event(raw json.RawMessage, at int64) error {
	var ev eventMsg
	if err := json.Unmarshal(raw, &ev); err != nil {
		return err
	}
	switch ev.Type {
	case "token_count":
		var p tokenCount
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
		if i := p.Info; i != nil { // null when only rate limits changed
			r.count(i.Total, i.Last, i.ModelContextWindow)
		}
		if l := p.RateLimits; l != nil {
			r.rateLimits(at, l.Primary, l.Secondary)
		}
	case "task_started":
		var p taskStarted
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
		r.setWindow(p.ModelContextWindow)
	case "item_completed":
		var p itemCompleted
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
		r.itemCompleted(&p, at)
	case "context_compacted":
		r.st.Context = nil
	}
	return nil
}

func (r *Reader) turnContext(p *turnContext) {
	if p.CWD != "" {
		r.st.CWD = p.CWD
	}
	if p.Model != "" {
		r.st.Model = p.Model
	}
	switch cm := p.CollaborationMode; {
	case p.Effort != nil:
		r.st.Effort = *p.Effort
	case cm != nil && cm.Settings != nil && cm.Settings.ReasoningEffort != nil:
		r.st.Effort = *cm.Settings.ReasoningEffort
	default:
		r.st.Effort = "" // the model's default, which the rollout does not name
	}
}

// count takes a response's counts: the session's totals, the response's
// own (whose total is what the context holds) and the window.
func (r *Reader) count(total, last *Totals, window *int64) {
	if total != nil {
		t := *total
		r.st.Totals = &t
	}
	if last != nil {
		tok := last.Total
		r.st.Context = &tok
		r.st.Replied = true
	}
	r.setWindow(window)
}

// rateLimits files the windows token_count said by their length; a line
// that says none keeps what an earlier one said.
func (r *Reader) rateLimits(atMs int64, windows ...*rateWindow) {
	rl := &status.RateLimits{}
	kept := false
	for _, w := range windows {
		if w == nil || w.UsedPercent == nil || w.WindowMinutes == nil {
			continue
		}
		var resets float64
		switch {
		case w.ResetsAt != nil:
			resets = *w.ResetsAt
		case w.ResetsInSeconds != nil && atMs > 0:
			resets = float64(atMs)/1000 + *w.ResetsInSeconds
		}
		kept = rl.Window(*w.WindowMinutes, *w.UsedPercent, resets) || kept
	}
	if kept {
		r.st.RateLimits = rl
	}
}

// RateLimits are the account's windows the rollout said last, nil when none.
func (r *Reader) RateLimits() *status.RateLimits { return r.st.RateLimits }

func (r *Reader) setWindow(w *int64) {
	if w != nil && *w > 0 {
		v := *w
		r.st.Window = &v
	}
}

func (r *Reader) responseItem(p *responseItem, blocked bool, at int64) {
	switch p.Type {
	case "message":
		if p.Role == "assistant" {
			r.st.Replied = false // its response's counts come after it
		}
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		name := p.Name
		switch p.Type {
		case "local_shell_call":
			name = "local_shell"
		case "web_search_call":
			name = "web_search"
		}
		if name == "" {
			return
		}
		if !slices.Contains(r.st.Called, name) && len(r.st.Called) < maxNames {
			r.st.Called = append(r.st.Called, name)
		}
		r.st.Calls = append(r.st.Calls, Call{ID: p.CallID, Tool: transcript.ShownName(name), Action: actionOf(name), Outcome: status.Pending, At: at})
		if len(r.st.Calls) > status.MaxRecent {
			r.st.Calls = append(r.st.Calls[:0], r.st.Calls[len(r.st.Calls)-status.MaxRecent:]...)
		}
	case "function_call_output", "custom_tool_call_output":
		// A call that ran has its item completed first; one still pending
		// here ended without an item to say otherwise, or was refused.
		outcome := status.OK
		if blocked {
			outcome = status.Error
		}
		r.settle(p.CallID, outcome)
	}
}

// itemCompleted is how a call went (a command's exit code, a change's
// status) and, for a file change, the paths it touched.
func (r *Reader) itemCompleted(p *itemCompleted, at int64) {
	it := p.Item
	if it == nil || it.ID == "" {
		return
	}
	failed := it.Status != "" && it.Status != "completed" || it.ExitCode != nil && *it.ExitCode != 0
	outcome := status.OK
	if failed {
		outcome = status.Error
	}
	r.settle(it.ID, outcome)
	if it.Type != "FileChange" || failed {
		return
	}
	for p, ch := range it.Changes {
		if p = r.absolute(p); p == "" {
			continue // no path, or relative to no known folder: not a file
		}
		created := false
		switch ch.Type {
		case "add":
			created = true
		case "update":
			if ch.MovePath == "" {
				break
			}
			if o, ok := r.st.Outputs[p]; ok && o.Created {
				created = true // a file of the session's, moved: still its own
				r.gone(p)
			}
			if p = r.absolute(ch.MovePath); p == "" {
				continue
			}
		case "delete":
			if o, ok := r.st.Outputs[p]; ok && o.Created {
				r.gone(p) // created and deleted in the session: no output
			}
			continue // a deleted file is no output
		default:
			continue
		}
		r.st.Gone = slices.DeleteFunc(r.st.Gone, func(g string) bool { return g == p })
		o := r.st.Outputs[p]
		o.Created = o.Created || created // created once stays created
		o.At = at
		r.st.Outputs[p] = o
	}
}

// absolute is a change's path made absolute and clean: "" for an empty
// path or the session's folder itself (no file), and for a relative one
// when the folder is not known.
func (r *Reader) absolute(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		if r.st.CWD == "" {
			return ""
		}
		p = filepath.Join(r.st.CWD, p)
	}
	if p = filepath.Clean(p); r.st.CWD != "" && p == filepath.Clean(r.st.CWD) {
		return ""
	}
	return p
}

// gone takes a file the session created out of its outputs, and keeps
// its path so that a status file that listed it drops it too.
func (r *Reader) gone(p string) {
	delete(r.st.Outputs, p)
	r.st.Gone = append(slices.DeleteFunc(r.st.Gone, func(g string) bool { return g == p }), p)
	if n := len(r.st.Gone) - 2*status.MaxOutputsPerKind; n > 0 {
		r.st.Gone = slices.Delete(r.st.Gone, 0, n)
	}
}

// Gone are the files the session created and then deleted or moved away:
// no outputs, though an earlier read listed them.
func (r *Reader) Gone() []string { return slices.Clone(r.st.Gone) }

// settle gives a pending call its outcome.
func (r *Reader) settle(id, outcome string) {
	for i := range r.st.Calls {
		if c := &r.st.Calls[i]; c.ID == id && c.Outcome == status.Pending {
			c.Outcome = outcome
		}
	}
}

// actionOf names what a call did, from a fixed list, never from an argument.
func actionOf(tool string) string {
	switch tool {
	case "exec_command", "write_stdin", "shell", "shell_command", "local_shell":
		return "run"
	case "apply_patch":
		return "edit"
	case "view_image":
		return "read"
	case "web_search":
		return "search"
	}
	return ""
}

// cursorFormat changes when the saved shape does; an old cursor is dropped.
const cursorFormat = 1

// cursor is where a Reader stopped and what it knew then.
type cursor struct {
	transcript.CursorHead
	transcript.FilePos
	State state `json:"state"`
}

const cursorKind = "codex" // the cursors folder also holds Pi's and Claude's

// MarshalCursor saves where the Reader stands: small whatever the file's
// size (bounded lists and the outputs).
func (r *Reader) MarshalCursor() ([]byte, error) {
	return json.Marshal(cursor{CursorHead: transcript.CursorHead{Kind: cursorKind, Format: cursorFormat, Path: r.path}, FilePos: r.pos, State: r.st})
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes. A
// cursor for another path, kind or format is an error: read afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursor
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	if err := c.Check(cursorKind, cursorFormat, path, "Codex"); err != nil {
		return nil, err
	}
	switch {
	case !c.Valid() || len(c.State.Calls) > status.MaxRecent || len(c.State.Called) > maxNames:
		return nil, errors.New("cursor: out of range")
	}
	r := NewReader(path)
	r.pos, r.size, r.st = c.FilePos, c.Offset, c.State
	if r.st.Outputs == nil {
		r.st.Outputs = map[string]Output{}
	}
	return r, nil
}
