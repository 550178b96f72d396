// Package claude puts Claude Code sessions on jig's schema-1 status
// contract: `jig claude hook` (every hook event) and `jig claude statusline`
// (the statusLine command) each update the session's status file through
// the same engine and lock as every writer, take the session's requests and
// enforce its switches; Install merges those two commands into Claude's
// settings.
//
// Claude Code opens no channel for any of this: hooks get one JSON object on
// stdin and may answer on stdout; the statusLine command gets one on stdin
// and prints a line. docs/claude.md says what each event does.
package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cct "jig/claude/transcript"
	"jig/engine"
	"jig/request"
	"jig/status"
	"jig/terminal"
	"jig/transcript"
)

// Input is what Claude Code pipes to a hook or the statusLine command: the
// fields jig reads. A tool's arguments are read for a skill's name only
// (to refuse a skill switched off) and never kept.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	CWD            string          `json:"cwd"`
	Event          string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	Effort         *Effort         `json:"effort"`

	// statusLine's; a hook may say the model too, as a plain id
	Model *Model `json:"model"`
	Cost  *struct {
		TotalCostUSD *float64 `json:"total_cost_usd"`
	} `json:"cost"`
	ContextWindow *struct {
		Size         *int64 `json:"context_window_size"`
		CurrentUsage *struct {
			Input      int64 `json:"input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
}

// Effort is the reasoning effort Claude says: {"level": "medium"}, or a
// plain "medium".
type Effort struct {
	Level string `json:"level"`
}

func (e *Effort) UnmarshalJSON(data []byte) error {
	if json.Unmarshal(data, &e.Level) == nil {
		return nil
	}
	type plain Effort
	return json.Unmarshal(data, (*plain)(e))
}

// Model is the model Claude says: {"id", "display_name"} in the statusLine's
// JSON, a plain id where a hook's input names it.
type Model struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
}

func (m *Model) UnmarshalJSON(data []byte) error {
	if json.Unmarshal(data, &m.ID) == nil {
		return nil
	}
	type plain Model
	return json.Unmarshal(data, (*plain)(m))
}

// ParseInput reads Claude's JSON; a session id is required. A field jig
// reads in another shape than expected is named, cut short.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		return nil, errors.New("not a JSON object")
	}
	if in.SessionID == "" {
		return nil, errors.New("no session_id")
	}
	if len(in.SessionID) > status.MaxID {
		return nil, fmt.Errorf("session_id longer than %d bytes", status.MaxID)
	}
	return &in, nil
}

// transcriptLag bounds how long a tool call's hook waits for Claude to
// write the call's entry into the transcript (it does so within about a
// tenth of a second, after the PreToolUse hooks have started).
const transcriptLag = 500 * time.Millisecond

// Writer writes one Claude session's status file.
type Writer struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	PID    int // Claude's process (ClaudePID)
}

// AgentDir is Claude's own folder: $CLAUDE_CONFIG_DIR, else ~/.claude.
func AgentDir(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		if home := getenv("HOME"); home != "" && (d == "~" || strings.HasPrefix(d, "~/")) {
			return filepath.Join(home, d[1:])
		}
		return d
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".claude")
	}
	return ""
}

// update is the read-merge-write every Claude event does: under the
// session's lock, the transcript (read on from the saved cursor), then what
// the event says live, laid over the file; requests taken; the file
// written if it changed. edit adjusts the status before it is written.
func (w *Writer) update(in *Input, live map[string]any, edit func(s *status.Status, prev *status.Status)) (*status.Status, error) {
	var out *status.Status
	_, err := w.Dir.Update(in.SessionID, w.Now(), func(prev *status.Status) (*status.Status, error) {
		r, cursor := w.reader(in)
		var derived *transcript.Derived
		if r != nil {
			derived = r.Derive(transcript.NewRepoFinder().Repo)
		}
		if in.CWD != "" {
			live["cwd"] = in.CWD
		}
		if in.Effort != nil && in.Effort.Level != "" {
			live["thinking"] = in.Effort.Level
		}
		liveJSON, err := json.Marshal(live)
		if err != nil {
			return nil, err
		}
		s, err := engine.Build(prev, derived, liveJSON)
		if err != nil {
			return nil, err
		}
		if s.Usage.Cost == nil && prev != nil && prev.Usage.Cost != nil {
			c := *prev.Usage.Cost // Claude's own latest figure (statusLine) until it says another
			s.Usage.Cost = &c
		}
		if s.Thinking != nil && *s.Thinking == "" {
			s.Thinking = nil
		}
		w.fill(s, in)
		if prev == nil {
			// a new file: a resumed session gets back the switches its
			// earlier run kept (the file went at that run's SessionEnd)
			s.Switches = w.keptSwitches(in.SessionID)
		}
		if r != nil {
			offered, deferred := r.Tools()
			if len(offered) > 0 {
				s.Tools = status.Tools{Active: len(offered), Total: len(offered) + len(deferred)}
			}
			w.takeRequest(s, r)
			w.saveCursor(in.SessionID, r, cursor)
		}
		if edit != nil {
			edit(s, prev)
		}
		out = s
		return s, nil
	})
	return out, err
}

// fill sets what the environment knows.
func (w *Writer) fill(s *status.Status, in *Input) {
	s.Schema, s.Session, s.PID, s.Host, s.Agent = status.Schema, in.SessionID, w.PID, w.Host, status.AgentClaude
	s.AgentDir = AgentDir(w.Getenv)
	if in.TranscriptPath != "" {
		p := in.TranscriptPath
		s.SessionFile = &p
	}
	if s.CWD == "" {
		s.CWD, _ = os.Getwd()
	}
	s.Terminals = terminal.Detect(w.Getenv)
	s.Terminal, s.TerminalFrom = nil, nil
	if t := terminal.Innermost(s.Terminals); t != nil {
		s.Terminal, s.TerminalFrom = &t.ID, &t.From
	}
}

// cursorPath is where a session's transcript reading stopped; the folder
// is shared with `jig session write`, whose cursors a Claude reader refuses.
func (w *Writer) cursorPath(session string) string {
	return w.Dir.Path(status.CursorsDir, status.SafeName(session)+".json")
}

// reader is the session's transcript read on from its saved cursor (whose
// bytes it returns too); nil when Claude has not written the transcript yet.
func (w *Writer) reader(in *Input) (*cct.Reader, []byte) {
	if in.TranscriptPath == "" || !filepath.IsAbs(in.TranscriptPath) {
		return nil, nil
	}
	var r *cct.Reader
	var cursor []byte
	if w.Dir.Check(status.CursorsDir) == nil {
		if data, err := status.ReadFileNoFollow(w.cursorPath(in.SessionID)); err == nil {
			if r, _ = cct.RestoreReader(in.TranscriptPath, data); r != nil { // a stale or foreign cursor is dropped
				cursor = data
			}
		}
	}
	if r == nil {
		r = cct.NewReader(in.TranscriptPath)
	}
	restoredAt := r.Offset()
	// Claude writes its transcript a moment after it runs the hooks: wait,
	// briefly, for the entry the event is about (a call's, or the reply
	// that ended the turn), so the file says what led to it.
	caughtUp := func() bool {
		switch {
		case in.ToolUseID != "":
			return r.Outcome(in.ToolUseID) != ""
		case in.Event == "Stop":
			return r.TurnEnded()
		}
		return true
	}
	expects := in.ToolUseID != "" || in.Event == "Stop"
	err := r.Update()
	for deadline := time.Now().Add(transcriptLag); expects && (err != nil || !caughtUp()) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		err = r.Update()
	}
	if err != nil {
		return nil, nil // not written yet
	}
	if cursor != nil && r.Offset() != restoredAt {
		cursor = nil // moved on: save it
	}
	return r, cursor
}

// saveCursor saves where the reader stopped, unless it read nothing since
// the saved cursor (was): the hook that finds nothing new writes nothing.
func (w *Writer) saveCursor(session string, r *cct.Reader, was []byte) {
	if was != nil {
		return // read nothing new since it was saved
	}
	data, err := r.MarshalCursor()
	if err != nil || w.Dir.Ensure(status.CursorsDir) != nil {
		return // a cursor not saved costs one full read next time, nothing more
	}
	status.WriteFileAtomic(w.cursorPath(session), data)
}

// End removes the session's file and cursor: SessionEnd.
func (w *Writer) End(session string) error {
	if err := w.Dir.Remove(session); err != nil {
		return err
	}
	if err := os.Remove(w.cursorPath(session)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// takeRequest takes the session's waiting request, if any, once the
// transcript says which tools Claude offers, and writes its answer and
// switches into s. Claude Code cannot drop a tool or a skill mid-session,
// so a switch off is enforced by refusing the calls (PreToolUse); it cannot
// reload, so a reload is answered no.
func (w *Writer) takeRequest(s *status.Status, r *cct.Reader) {
	offered, deferred := r.Tools()
	if len(offered) == 0 {
		return // before Claude's first request every name would be unknown: the request waits
	}
	have := request.Available{Tools: append(slices.Clone(offered), deferred...), Active: offered, Skills: r.Skills()}
	out, err := request.Handle(w.Dir, s.Session, have, s.Switches, w.Now())
	if out == nil {
		return // nothing waits, or a bad request without an id (nothing to answer)
	}
	ans := out.Answer
	if err == nil {
		turnedOff := newlyOff(s.Switches, out.Switches)
		s.Switches = out.Switches
		w.keepSwitches(s.Session, out.Switches)
		for _, said := range []string{", reload when idle", "reload when idle; ", "reload when idle"} {
			if strings.Contains(ans.Message, said) { // answered below: Claude cannot
				ans.Message = strings.Replace(ans.Message, said, "", 1)
				break
			}
		}
		var notes []string
		if turnedOff {
			notes = append(notes, "Claude Code cannot drop a tool or skill mid-session: jig refuses its calls")
		}
		if s.State == status.Idle {
			notes = append(notes, "Claude is idle: applies from the next prompt")
		} else {
			notes = append(notes, "applies from the model's next request")
		}
		if out.Reload {
			ans.OK = false
			ans.Reload = nil
			notes = append(notes, "reload: Claude Code cannot be reloaded from outside; restart it with claude --continue")
		}
		ans.Message = strings.Join(append(nonEmpty(ans.Message), notes...), "; ")
	}
	s.LastRequest = &ans
}

// newlyOff reports whether next switches off a tool or skill that was not off.
func newlyOff(prev, next status.Switches) bool {
	for name, on := range next.Tools {
		if was, ok := prev.Tools[name]; !on && (!ok || was) {
			return true
		}
	}
	for name, on := range next.Skills {
		if was, ok := prev.Skills[name]; !on && (!ok || was) {
			return true
		}
	}
	return false
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
