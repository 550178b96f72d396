// Package chat reads a Gemini CLI chat record
// (~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl) into the
// status file's terms, in the same shape as the other agents' readers
// (jig/transcript's Derived), so the same engine builds a Gemini session's
// status.
//
// The record is JSONL: a header line {sessionId, projectHash, startTime,
// …}, then message lines {id, timestamp, type, content, …}. Gemini CLI
// appends a message again, whole, each time it changes (its tokens arrive,
// its tool calls end): a later line with the same id rewrites it. A
// {"$set": {…}} line updates header fields, or with "messages" restates
// the history (messages already recorded, and synthetic ones without
// tokens); a {"$rewindTo": id} line drops the messages from id on.
//
// It reads incrementally: each Update reads only the lines appended since
// the last one, and a Reader saves where it stopped (MarshalCursor) so a
// one-shot hook process carries on from there (RestoreReader). The cursor
// keeps offsets, counts, hashes of ids, tool names and the paths written:
// never a message, an argument or a result.
package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"

	"jig/status"
	"jig/transcript"
)

// Limits.
const (
	MaxLine = 32 << 20 // a longer line is skipped unread
	// window is how many of the latest model messages the reader keeps by
	// id: Gemini CLI rewrites only its latest message (its tokens, its
	// tool calls), so a rewrite further back than this is taken as a new
	// message.
	window     = 32
	maxNames   = 256 // tool names remembered as called
	maxOutputs = 200 // paths remembered as written
)

// Tokens are one model message's counts, as the record names them:
// Input is promptTokenCount (cached included), Output
// candidatesTokenCount, Tool toolUsePromptTokenCount.
type Tokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
	Total    int64 `json:"total"`
}

func (t *Tokens) add(u Tokens, sign int64) {
	t.Input += sign * u.Input
	t.Output += sign * u.Output
	t.Cached += sign * u.Cached
	t.Thoughts += sign * u.Thoughts
	t.Tool += sign * u.Tool
	t.Total += sign * u.Total
}

// message is a model message the reader can still see rewritten: its id's
// hash and the tokens counted for it.
type message struct {
	ID     uint64  `json:"id"`
	Tokens *Tokens `json:"tokens,omitempty"`
}

// Call is one tool call: its id's hash, a name, what kind of action, how
// it ended.
type Call struct {
	ID      uint64 `json:"id"`
	Tool    string `json:"tool"`
	Action  string `json:"action,omitempty"`
	Outcome string `json:"outcome"`
	At      int64  `json:"at"` // unix ms
}

// Output is a file a successful call wrote.
type Output = transcript.Written

// state is everything a Reader knows; it is also the cursor's body.
type state struct {
	SessionID string `json:"sessionId"`
	Started   string `json:"started"`
	Entries   int    `json:"entries"`
	Skipped   int    `json:"skipped"`
	Model     string `json:"model"`

	Totals   Tokens    `json:"totals"`   // every model message's latest counts, summed
	Context  *int64    `json:"context"`  // the latest model message's input; nil after a rewind
	Messages []message `json:"messages"` // the latest window model messages, oldest first

	Called  []string          `json:"called"` // tool names called, in order
	Calls   []Call            `json:"calls"`  // the newest MaxRecent, oldest first
	Outputs map[string]Output `json:"outputs"`
}

// Reader reads one chat record incrementally. It is not safe for
// concurrent use.
type Reader struct {
	path string
	pos  transcript.FilePos
	size int64
	st   state
	buf  []byte
}

// NewReader prepares to read the record at path. It does no I/O.
func NewReader(path string) *Reader {
	r := &Reader{path: path}
	r.reset()
	return r
}

func (r *Reader) reset() {
	*r = Reader{path: r.path, buf: r.buf}
	r.st.Outputs = map[string]Output{}
}

// Path is the record's path.
func (r *Reader) Path() string { return r.path }

// Offset is how many bytes have been consumed: complete lines only.
func (r *Reader) Offset() int64 { return r.pos.Offset }

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// Update reads what was appended since the last call. The file is opened
// without blocking and must be a regular file (status.OpenFile); lines
// longer than MaxLine are skipped unread. A last line without its newline
// is left for later: Gemini may be writing it. A file that was replaced,
// shrank or changed before the cursor is read again from the start.
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

// record is one line as the reader decodes it: a message's content,
// thoughts, a call's args and result are not fields here, so never
// decoded (the decoder passes over them).
type record struct {
	// the header
	SessionID   *string `json:"sessionId"`
	ProjectHash *string `json:"projectHash"`
	StartTime   string  `json:"startTime"`
	// a message
	ID        *string    `json:"id"`
	Timestamp string     `json:"timestamp"`
	Type      string     `json:"type"`
	Tokens    *Tokens    `json:"tokens"`
	Model     string     `json:"model"`
	ToolCalls []toolCall `json:"toolCalls"`
	// the other lines
	Set      *setRecord `json:"$set"`
	RewindTo *string    `json:"$rewindTo"`
}

type toolCall struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Status        string  `json:"status"`
	Timestamp     string  `json:"timestamp"`
	ResultDisplay display `json:"resultDisplay"`
}

// setRecord is what a $set line may change that the reader keeps. Its
// messages, when it has them, restate the history: each was recorded
// before (its tokens counted) or is a synthetic one without tokens, so
// they are passed over.
type setRecord struct {
	SessionID string `json:"sessionId"`
	StartTime string `json:"startTime"`
}

// display is what the reader takes of a call's resultDisplay: a file
// change's path and whether the call created it. A display that is text
// (a command's output) is passed over unread.
type display struct {
	FilePath  string
	IsNewFile bool
}

func (d *display) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var v struct {
		FilePath  string `json:"filePath"`
		IsNewFile bool   `json:"isNewFile"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	d.FilePath, d.IsNewFile = v.FilePath, v.IsNewFile
	return nil
}

// line handles one complete line (without its newline). A line that is
// not a JSON object, or whose fields the reader uses have another shape,
// is counted as skipped and changes nothing.
func (r *Reader) line(b []byte) {
	var rec record
	switch {
	case len(b) == 0:
		return
	case b[0] != '{' || json.Unmarshal(b, &rec) != nil:
		r.st.Skipped++
		return
	}
	r.st.Entries++
	switch {
	case rec.RewindTo != nil:
		// the messages from that id on leave the history; what they cost
		// and wrote stays spent. The context is unknown until the next reply.
		r.st.Context = nil
	case rec.Set != nil:
		if rec.Set.SessionID != "" {
			r.st.SessionID = rec.Set.SessionID
		}
		if rec.Set.StartTime != "" && r.st.Started == "" {
			r.st.Started = rec.Set.StartTime
		}
	case rec.ID != nil:
		if rec.Type == "gemini" {
			r.model(&rec)
		}
	case rec.SessionID != nil && rec.ProjectHash != nil:
		if r.st.SessionID == "" {
			r.st.SessionID, r.st.Started = *rec.SessionID, rec.StartTime
		}
	}
}

// model takes a model message, new or rewritten: its tokens replace what
// was counted for it, its calls are added or settled.
func (r *Reader) model(rec *record) {
	id := hashOf(*rec.ID)
	i := slices.IndexFunc(r.st.Messages, func(m message) bool { return m.ID == id })
	if i < 0 {
		r.st.Messages = append(r.st.Messages, message{ID: id})
		if len(r.st.Messages) > window {
			r.st.Messages = append(r.st.Messages[:0], r.st.Messages[len(r.st.Messages)-window:]...)
		}
		i = len(r.st.Messages) - 1
	}
	m := &r.st.Messages[i]
	if t := rec.Tokens; t != nil {
		if m.Tokens != nil {
			r.st.Totals.add(*m.Tokens, -1)
		}
		r.st.Totals.add(*t, 1)
		tok := *t
		m.Tokens = &tok
		in := t.Input
		r.st.Context = &in
	}
	if rec.Model != "" {
		r.st.Model = rec.Model
	}
	at := transcript.MsOf(rec.Timestamp)
	for _, tc := range rec.ToolCalls {
		r.call(&tc, at)
	}
}

// call adds a tool call, or settles one read before, and records the file
// a successful one wrote.
func (r *Reader) call(tc *toolCall, msgAt int64) {
	if tc.Name == "" {
		return
	}
	at := transcript.MsOf(tc.Timestamp)
	if at == 0 {
		at = msgAt
	}
	id := hashOf(tc.ID)
	outcome := outcomeOf(tc.Status)
	i := slices.IndexFunc(r.st.Calls, func(c Call) bool { return c.ID == id })
	if i < 0 {
		if !slices.Contains(r.st.Called, tc.Name) && len(r.st.Called) < maxNames {
			r.st.Called = append(r.st.Called, tc.Name)
		}
		r.st.Calls = append(r.st.Calls, Call{ID: id, Tool: transcript.ShownName(tc.Name), Action: Action(tc.Name), At: at})
		if len(r.st.Calls) > status.MaxRecent {
			r.st.Calls = append(r.st.Calls[:0], r.st.Calls[len(r.st.Calls)-status.MaxRecent:]...)
		}
		i = len(r.st.Calls) - 1
	}
	r.st.Calls[i].Outcome = outcome
	if p := tc.ResultDisplay.FilePath; outcome == status.OK && p != "" && filepath.IsAbs(p) {
		r.written(filepath.Clean(p), tc.ResultDisplay.IsNewFile, at)
	}
}

// written records a path a call wrote: created once stays created; the
// oldest path goes when there are maxOutputs.
func (r *Reader) written(p string, created bool, at int64) {
	o, had := r.st.Outputs[p]
	if !had && len(r.st.Outputs) >= maxOutputs {
		oldest := ""
		for q, w := range r.st.Outputs {
			if o := r.st.Outputs[oldest]; oldest == "" || w.At < o.At || w.At == o.At && q < oldest {
				oldest = q
			}
		}
		delete(r.st.Outputs, oldest)
	}
	o.Created = o.Created || created
	o.At = at
	r.st.Outputs[p] = o
}

// outcomeOf is a call's outcome from Gemini CLI's status of it.
func outcomeOf(s string) string {
	switch s {
	case "success":
		return status.OK
	case "error", "cancelled":
		return status.Error
	}
	return status.Pending // scheduled, validating, awaiting_approval, executing
}

// Action names what a call of tool does, from a fixed list, never from an
// argument.
func Action(tool string) string {
	switch tool {
	case "run_shell_command":
		return "run"
	case "write_file":
		return "write"
	case "replace":
		return "edit"
	case "read_file", "read_many_files":
		return "read"
	case "grep_search", "glob", "google_web_search", "search_file_content":
		return "search"
	case "list_directory":
		return "list"
	}
	return ""
}

// hashOf is FNV-1a of an id: the cursor recognises a message or a call
// again without keeping its id.
func hashOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// cursorFormat changes when the saved shape does; an old cursor is dropped.
const cursorFormat = 1

const cursorKind = "gemini" // the cursors folder also holds the other agents'

// cursor is where a Reader stopped and what it knew then.
type cursor struct {
	transcript.CursorHead
	transcript.FilePos
	State state `json:"state"`
}

// MarshalCursor saves where the Reader stands: small whatever the file's
// size (bounded lists and outputs).
func (r *Reader) MarshalCursor() ([]byte, error) {
	return json.Marshal(cursor{CursorHead: transcript.CursorHead{Kind: cursorKind, Format: cursorFormat, Path: r.path},
		FilePos: r.pos, State: r.st})
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes. A
// cursor for another path, kind or format, or out of range, is an error:
// read afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursor
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	if err := c.Check(cursorKind, cursorFormat, path, "Gemini"); err != nil {
		return nil, err
	}
	st := &c.State
	if !c.Valid() || len(st.Calls) > status.MaxRecent || len(st.Called) > maxNames || len(st.Messages) > window ||
		len(st.Outputs) > maxOutputs {
		return nil, errors.New("cursor: out of range")
	}
	r := NewReader(path)
	r.pos, r.size, r.st = c.FilePos, c.Offset, c.State
	if r.st.Outputs == nil {
		r.st.Outputs = map[string]Output{}
	}
	return r, nil
}

// Current reports whether the record at path is still exactly what the
// cursor read: the same file, nothing appended, the bytes before the
// cursor unchanged. A hook that finds it current has nothing to derive:
// it reads the cursor's head alone, not what it knew.
func Current(path string, cursorData []byte) bool {
	var c struct {
		transcript.CursorHead
		transcript.FilePos
	}
	if transcript.DecodeHead(cursorData, &c) != nil || c.Kind != cursorKind || c.Format != cursorFormat || c.Path != path ||
		c.Offset <= 0 || !c.Valid() {
		return false
	}
	f, size, dev, ino, err := transcript.OpenFollowed(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return size == c.Offset && c.Same(f, dev, ino, size)
}
