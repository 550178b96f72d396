// Package transcript reads a Qwen Code transcript
// (~/.qwen/projects/<cwd with / as ->/chats/<session id>.jsonl) into the
// status file's terms (jig/transcript's Derived), incrementally: each
// Update reads only the lines appended since the last one, and a Reader
// saves where it stopped (MarshalCursor) so a one-shot hook process
// carries on from there (RestoreReader).
//
// The lines are Claude-like records {uuid, parentUuid, sessionId,
// timestamp, type, cwd, model, message, usageMetadata}: "assistant" records
// hold the model's reply (Gemini-style parts: text, functionCall {id, name,
// args}) and its usage; "tool_result" records hold the functionResponse and
// a toolCallResult {callId, status}. It keeps names, paths and numbers only:
// a tool's arguments are looked at for the path a write touches and never
// kept.
package transcript

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"jig/status"
	pi "jig/transcript"
)

// Limits.
const (
	MaxLine    = 32 << 20 // a longer line is skipped unread
	maxPending = 200      // tool calls waiting for their result
	maxCalled  = 256      // names of the tools the model called
)

// Totals are token counts, in the status file's terms: Input without the
// cached part, which is CacheRead.
type Totals struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	CacheRead int64 `json:"cacheRead"`
}

// Call is one tool call: a name, what kind of action, how it ended.
type Call = pi.Call

// pending is a call waiting for its result.
type pending = pi.Pending

// state is everything a Reader knows; it is also the cursor's body.
type state struct {
	// The calls come first: a hook that asks only whether a call was read
	// decodes them alone (transcript.Lazy.PeekOutcome).
	Calls   []Call             `json:"calls"` // the newest MaxRecent, oldest first
	Pending map[string]pending `json:"pending"`

	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Started   string `json:"started"`
	Entries   int    `json:"entries"`
	Skipped   int    `json:"skipped"`
	Model     string `json:"model"`
	TurnEnded bool   `json:"turnEnded"` // the latest record is a reply with no call

	Totals  Totals `json:"totals"`
	Context *int64 `json:"context"` // the latest reply's prompt tokens; nil after a compression
	Window  *int64 `json:"window"`  // the latest reply's contextWindowSize, when Qwen records it

	Called  []string              `json:"called"`
	Outputs map[string]pi.Written `json:"outputs"`
}

// Reader reads one session's transcript incrementally. It is not safe for
// concurrent use.
type Reader struct {
	path string
	pos  pi.FilePos
	from *pi.FilePos // where the cursor it was restored from stood
	st   state
	lazy pi.Lazy // st as a restored cursor holds it, decoded at first use (load)
	buf  []byte
}

// load decodes the state a cursor left lazy: false when it does not
// decode or is out of range, the reader reset to read afresh.
func (r *Reader) load() bool {
	if !r.lazy.Waiting() {
		return true
	}
	var st state
	if !r.lazy.Take(&st, func() error { return st.check() }) {
		r.reset()
		return false
	}
	if st.Pending == nil {
		st.Pending = map[string]pending{}
	}
	if st.Outputs == nil {
		st.Outputs = map[string]pi.Written{}
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

// NewReader prepares to read the transcript at path. It does no I/O.
func NewReader(path string) *Reader {
	r := &Reader{path: path}
	r.reset()
	return r
}

func (r *Reader) reset() {
	*r = Reader{path: r.path, buf: r.buf}
	r.st.Pending = map[string]pending{}
	r.st.Outputs = map[string]pi.Written{}
}

// Path is the transcript's path.
func (r *Reader) Path() string { return r.path }

// Moved reports whether r has read further than the cursor it was
// restored from (a reader not restored from one has always moved).
func (r *Reader) Moved() bool { return r.from == nil || *r.from != r.pos }

var errReplaced = errors.New("transcript replaced")

// Update reads what was appended since the last call. A last line without
// its newline is left for later: Qwen may be writing it. When the file was
// replaced, shrank or changed before the cursor, it is read again from the
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
	f, size, dev, ino, err := pi.OpenFollowed(r.path)
	if err != nil {
		return err
	}
	defer f.Close()
	if r.pos.Offset > 0 && !r.pos.Same(f, dev, ino, size) {
		return errReplaced
	}
	r.pos.Dev, r.pos.Ino = dev, ino
	if size == r.pos.Offset {
		return nil // nothing new: the hook's usual case
	}
	if !r.load() {
		return errReplaced // the cursor's state did not decode: read it all again
	}
	r.pos.Offset, r.buf, err = pi.Lines(f, r.pos.Offset, size, r.buf, lineLimit,
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

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// entry is the part of a record the reader uses.
type entry struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Timestamp string `json:"timestamp"`
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Model     string `json:"model"`
	Message   *struct {
		Parts []part `json:"parts"`
	} `json:"message"`
	Usage *struct {
		Prompt     int64 `json:"promptTokenCount"`
		Candidates int64 `json:"candidatesTokenCount"`
		Cached     int64 `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	ContextWindowSize *int64 `json:"contextWindowSize"`
	ToolCallResult    *struct {
		CallID string `json:"callId"`
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

// part is one part of a message: a call, or a call's response.
type part struct {
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Response struct {
			Output json.RawMessage `json:"output"`
			Error  json.RawMessage `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
}

// wanted are the markers of the records the reader decodes; every other
// line (telemetry, snapshots, titles) is counted and skipped unparsed.
var wanted = [][]byte{[]byte(`"type":"assistant"`), []byte(`"type":"tool_result"`), []byte(`"chat_compression"`), []byte(`"type":"user"`)}

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
	var e entry
	if !slices.ContainsFunc(wanted, func(m []byte) bool { return bytes.Contains(b, m) }) {
		// still the session's own: its id, folder and start
		if r.st.SessionID != "" || json.Unmarshal(b, &e) != nil {
			return
		}
		r.head(&e)
		return
	}
	if err := json.Unmarshal(b, &e); err != nil {
		r.st.Skipped++
		return
	}
	r.head(&e)
	switch e.Type {
	case "assistant":
		r.assistant(&e)
	case "tool_result":
		r.toolResult(&e)
	case "user":
		r.st.TurnEnded = false
	case "system":
		if e.Subtype == "chat_compression" {
			r.st.Context = nil // unknown until the next reply
		}
	}
}

func (r *Reader) head(e *entry) {
	if r.st.SessionID == "" && e.SessionID != "" {
		r.st.SessionID = e.SessionID
	}
	if r.st.CWD == "" && e.CWD != "" && filepath.IsAbs(e.CWD) {
		r.st.CWD = e.CWD
	}
	if r.st.Started == "" && e.Timestamp != "" {
		r.st.Started = e.Timestamp
	}
}

func (r *Reader) assistant(e *entry) {
	if e.Model != "" {
		r.st.Model = e.Model
	}
	if u := e.Usage; u != nil && u.Prompt >= 0 && u.Candidates >= 0 && u.Cached >= 0 {
		// OpenAI's prompt tokens hold the cached ones; the completion
		// tokens (candidates) hold the reasoning ones
		r.st.Totals.Input += max(0, u.Prompt-u.Cached)
		r.st.Totals.CacheRead += min(u.Cached, u.Prompt)
		r.st.Totals.Output += u.Candidates
		tok := u.Prompt
		r.st.Context = &tok
	}
	if w := e.ContextWindowSize; w != nil && *w > 0 {
		win := *w
		r.st.Window = &win
	}
	at := pi.MsOf(e.Timestamp)
	r.st.TurnEnded = true
	if e.Message == nil {
		return
	}
	for _, p := range e.Message.Parts {
		fc := p.FunctionCall
		if fc == nil || fc.ID == "" || fc.Name == "" {
			continue
		}
		r.st.TurnEnded = false
		if _, seen := r.st.Pending[fc.ID]; seen || r.called(fc.ID) {
			continue
		}
		pd := pending{Tool: fc.Name}
		if Writes(fc.Name) {
			var in struct {
				FilePath     string `json:"file_path"`
				NotebookPath string `json:"notebook_path"`
			}
			json.Unmarshal(fc.Args, &in)
			pd.Path = cmp.Or(in.FilePath, in.NotebookPath)
			if pd.Path != "" && !filepath.IsAbs(pd.Path) && r.st.CWD != "" {
				pd.Path = filepath.Join(r.st.CWD, pd.Path)
			}
			if pd.Path != "" {
				pd.Path = filepath.Clean(pd.Path)
			}
			if !status.PlacedPath(pd.Path) {
				pd.Path = "" // relative to no known folder: the status file takes placed paths only
			}
		}
		if len(r.st.Pending) < maxPending {
			r.st.Pending[fc.ID] = pd
		}
		if !slices.Contains(r.st.Called, fc.Name) && len(r.st.Called) < maxCalled {
			r.st.Called = append(r.st.Called, fc.Name)
		}
		r.st.Calls = append(r.st.Calls, Call{ID: fc.ID, Tool: pi.ShownName(fc.Name), Action: ActionOf(fc.Name), Outcome: status.Pending, At: at})
		if len(r.st.Calls) > status.MaxRecent {
			r.st.Calls = append(r.st.Calls[:0], r.st.Calls[len(r.st.Calls)-status.MaxRecent:]...)
		}
	}
}

func (r *Reader) called(id string) bool {
	return slices.ContainsFunc(r.st.Calls, func(c Call) bool { return c.ID == id })
}

// toolResult settles the calls a tool_result record answers, and records
// the file a successful write touched.
func (r *Reader) toolResult(e *entry) {
	r.st.TurnEnded = false
	if e.Message == nil {
		return
	}
	at := pi.MsOf(e.Timestamp)
	for _, p := range e.Message.Parts {
		fr := p.FunctionResponse
		if fr == nil || fr.ID == "" {
			continue
		}
		failed := len(fr.Response.Error) > 0
		if res := e.ToolCallResult; res != nil && res.CallID == fr.ID && res.Status != "success" {
			failed = true
		}
		outcome := status.OK
		if failed {
			outcome = status.Error
		}
		r.Settle(fr.ID, outcome)
		pd, ok := r.st.Pending[fr.ID]
		delete(r.st.Pending, fr.ID)
		if !ok || failed || pd.Path == "" {
			continue
		}
		var said string
		json.Unmarshal(fr.Response.Output, &said)
		r.addOutput(pd.Path, Created(said), at)
	}
}

// addOutput records a file a write touched, by Pi's rule: once created it
// stays created when it is edited later.
func (r *Reader) addOutput(path string, created bool, at int64) {
	o := r.st.Outputs[path]
	o.Created = created || o.Created
	o.At = at
	r.st.Outputs[path] = o
}

// createdSays are how Qwen's write_file and edit start the message they
// give the model when they made the file (its own fixed words; the path
// follows).
var createdSays = []string{"Successfully created and wrote to new file:", "Created new file:"}

// Created reports whether a write's message to the model (the tool's
// output, PostToolUse's llmContent) says it created the file.
func Created(said string) bool {
	return slices.ContainsFunc(createdSays, func(p string) bool { return strings.HasPrefix(said, p) })
}

// Writes reports whether a tool writes the file its path argument names.
func Writes(tool string) bool {
	switch tool {
	case "write_file", "edit", "replace", "notebook_edit":
		return true
	}
	return false
}

// ActionOf names what a call did, from a fixed list, never from an argument.
func ActionOf(tool string) string {
	switch tool {
	case "read_file", "read_many_files":
		return "read"
	case "write_file":
		return "write"
	case "edit", "replace", "notebook_edit":
		return "edit"
	case "run_shell_command":
		return "run"
	case "grep_search", "glob":
		return "search"
	case "list_directory":
		return "list"
	}
	return ""
}

// cursorFormat changes when the saved shape does; an old cursor is dropped.
const cursorFormat = 2

// cursorHead is where a Reader stopped: the cursor's first line
// (transcript.JoinCursor); the state it knew is the second.
type cursorHead struct {
	pi.CursorHead
	pi.FilePos
}

const cursorKind = "qwen" // the cursors folder holds every agent's

// MarshalCursor saves where the Reader stands: small whatever the file's
// size (bounded lists and the outputs).
func (r *Reader) MarshalCursor() ([]byte, error) {
	st := r.state()
	return pi.JoinCursor(cursorHead{CursorHead: pi.CursorHead{Kind: cursorKind, Format: cursorFormat, Path: r.path}, FilePos: r.pos}, st)
}

// check refuses a state out of the reader's range.
func (st *state) check() error {
	if len(st.Calls) > status.MaxRecent || len(st.Pending) > maxPending || len(st.Called) > maxCalled {
		return errors.New("cursor: out of range")
	}
	return nil
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes, its
// state decoded at first use (one that does not decode, or is out of
// range, is read afresh then). A cursor for another path, kind or format
// is an error: read afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursorHead
	st, err := pi.SplitCursor(data, &c)
	if err != nil {
		return nil, err
	}
	if err := c.Check(cursorKind, cursorFormat, path, "Qwen Code"); err != nil {
		return nil, err
	}
	if !c.FilePos.Valid() {
		return nil, errors.New("cursor: out of range")
	}
	r := NewReader(path)
	r.pos = c.FilePos
	r.lazy.Set(st)
	from := c.FilePos
	r.from = &from
	return r, nil
}
