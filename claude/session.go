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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cct "jig/claude/transcript"
	"jig/engine"
	"jig/hook"
	"jig/request"
	"jig/status"
	"jig/transcript"
	"jig/writer"
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
	AgentID        string          `json:"agent_id"` // SubagentStop's: the subagent that ended
	Effort         *Effort         `json:"effort"`
	// Notification's kind (permission_prompt, elicitation_dialog, …);
	// its message is never read.
	NotificationType string `json:"notification_type"`

	// statusLine's; a hook may say the model too, as a plain id
	Model *Model `json:"model"`
	Cost  *struct {
		TotalCostUSD *float64 `json:"total_cost_usd"`
	} `json:"cost"`
	RateLimits    *RateLimits `json:"rate_limits"`
	ContextWindow *struct {
		Size         *int64 `json:"context_window_size"`
		CurrentUsage *struct {
			Input      int64 `json:"input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
}

// RateLimits are the statusLine's rate_limits: Claude Code's subscription
// windows, each when Claude said it.
type RateLimits struct {
	FiveHour *RateWindow `json:"five_hour"`
	SevenDay *RateWindow `json:"seven_day"`
}

// RateWindow is one window: the percent used and when it starts again, in
// seconds since the epoch.
type RateWindow struct {
	UsedPercentage *float64 `json:"used_percentage"`
	ResetsAt       *float64 `json:"resets_at"`
}

// Status is the windows as the status file keeps them (status.RateLimits,
// filed as Codex's are): a window Claude did not say, or said without a
// percent of 0 or more, is null.
func (r *RateLimits) Status() *status.RateLimits {
	out := &status.RateLimits{}
	for _, w := range [...]struct {
		minutes int64
		w       *RateWindow
	}{{status.FiveHourMinutes, r.FiveHour}, {status.WeeklyMinutes, r.SevenDay}} {
		if w.w != nil && w.w.UsedPercentage != nil {
			var resets float64
			if w.w.ResetsAt != nil {
				resets = *w.w.ResetsAt
			}
			out.Window(w.minutes, *w.w.UsedPercentage, resets)
		}
	}
	return out
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
	if err := status.UnmarshalObject(data, &in); err != nil {
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
	PID    int   // Claude's process (ClaudePID)
	NoDir  error // why Dir is nil: the state dir cannot be had (every call is refused)
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

// agent is Claude on the hook kit for one event (hook.Hooks runs the
// read–merge–write under the session's lock): the transcript (read on from
// the saved cursor), then what the event says live, laid over the file;
// requests taken; the file written if it changed. edit adjusts the status
// before it is written, given the file as it was and the transcript's
// reader (nil when Claude has not written the transcript yet).
func (w *Writer) agent(in *Input, live map[string]any, edit func(s, prev *status.Status, r *cct.Reader)) *hook.Agent {
	return &hook.Agent{ID: status.AgentClaude, Kept: SwitchesDir, Words: hook.PreToolUseDecision{}, Answers: claudeWords,
		Step: func(sw *writer.Writer, ev *hook.Event) hook.Step {
			tr := w.transcript(sw, in, ev.Outcome)
			live := maps.Clone(live)
			if in.Effort != nil && in.Effort.Level != "" {
				live["thinking"] = in.Effort.Level
			}
			st := hook.Step{AgentDir: AgentDir(w.Getenv), SessionFile: in.TranscriptPath, Live: live, Edit: w.edit(in, tr, edit)}
			if tr != nil {
				st.Transcript, st.Offers = tr, tr
			}
			return st
		}}
}

// edit is Claude's last word under the lock: its own cost kept, the file
// the event touched, the model's display name, the tools offered, the
// window an earlier run kept, then the caller's edit.
func (w *Writer) edit(in *Input, tr *claudeTranscript, edit func(s, prev *status.Status, r *cct.Reader)) func(s, prev *status.Status) {
	output := w.output(in)
	return func(s, prev *status.Status) {
		if s.Usage.Cost == nil && prev != nil && prev.Usage.Cost != nil {
			c := *prev.Usage.Cost // Claude's own latest figure (statusLine) until it says another
			s.Usage.Cost = &c
		}
		if s.Thinking != nil && *s.Thinking == "" {
			s.Thinking = nil
		}
		if output != nil {
			addOutput(s, *output)
		}
		var r *cct.Reader
		if tr != nil {
			r = tr.r
		}
		if tr != nil && tr.d != nil { // the transcript said something new
			if m := tr.d.Model; m != nil && s.Model != nil && s.Model.ID == m.ID && m.Name != m.ID {
				s.Model.Name = m.Name // the display name Claude gave it
			}
			offered, deferred := tr.r.Tools()
			if len(offered) > 0 {
				s.Tools = status.Tools{Active: len(offered), Total: len(offered) + len(deferred)}
			}
		}
		if s.Context.Window == nil && s.Model != nil {
			// no statusLine in this run (claude -p): the window Claude
			// said for the model in an earlier one
			if win := w.keptWindow(in.SessionID, s.Model.ID); win > 0 {
				s.Context.Window = &win
			}
		}
		if edit != nil {
			edit(s, prev, r)
		}
	}
}

// addOutput joins a file the event saw written to the status's outputs:
// created when this write or an earlier one created it (the transcript
// reader's rule, cct.OutputAction).
func addOutput(s *status.Status, o status.Output) {
	was := false
	for _, x := range s.Outputs {
		was = was || (x.Path == o.Path && x.Action == status.Created)
	}
	o.Action = cct.OutputAction(o.Action == status.Created, was)
	s.Outputs = engine.MergeOutputs([]status.Output{o}, s.Outputs)
}

// writer is the session's writer, in the hook's environment (Claude's).
func (w *Writer) writer() *writer.Writer {
	return writer.New(w.Dir, w.Now, w.Getenv, w.Host)
}

// transcript is the session's transcript as a writer.Source; nil when
// the input names none. Claude writes its transcript a moment after it
// runs the hooks: for a call's event, or the reply that ended the turn (the
// session's, or at SubagentStop the subagent's), it waits here, before the lock and briefly, until the entry the event is
// about is there, so the file says what led to it.
func (w *Writer) transcript(sw *writer.Writer, in *Input, outcome string) *claudeTranscript {
	if in.TranscriptPath == "" || !filepath.IsAbs(in.TranscriptPath) {
		return nil
	}
	t := &claudeTranscript{path: in.TranscriptPath}
	if outcome != "" && in.ToolUseID != "" {
		// Claude writes the call's result only after its after-tool hooks
		// ran, and a call refused before it ran a moment after: the event
		// settles it, in print mode too (no statusLine).
		t.settleID, t.settle = in.ToolUseID, outcome
	}
	subagent := in.Event == "SubagentStop" && in.AgentID != ""
	if in.ToolUseID == "" && in.Event != "Stop" && !subagent {
		return t // nothing to wait for: read under the lock
	}
	t.aheadFrom = sw.Cursor(in.SessionID)
	r, restored := t.restore(t.aheadFrom)
	caughtUp := func() bool {
		switch {
		case in.ToolUseID != "":
			return r.Outcome(in.ToolUseID) != ""
		case subagent:
			return r.SubagentEnded(in.AgentID)
		}
		return r.TurnEnded()
	}
	err := r.Update()
	for deadline := time.Now().Add(transcriptLag); (err != nil || !caughtUp()) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		err = r.Update()
	}
	if err == nil {
		t.ahead, t.aheadRestored = r, restored
	}
	return t
}

// claudeTranscript reads Claude's transcript on from the session's cursor
// (claude/transcript's own marshal and restore).
type claudeTranscript struct {
	path             string
	settleID, settle string      // the call an after-tool event settles, and how
	ahead            *cct.Reader // read before the lock, from the cursor aheadFrom
	aheadFrom        []byte
	aheadRestored    bool
	r                *cct.Reader // as Derive left it; nil when Claude has not written the transcript yet
	d                *transcript.Derived
}

// restore is a reader at cursor, and whether the cursor held (a stale or
// foreign cursor is dropped: the reader starts afresh).
func (t *claudeTranscript) restore(cursor []byte) (*cct.Reader, bool) {
	if cursor != nil {
		if r, err := cct.RestoreReader(t.path, cursor); err == nil {
			return r, true
		}
	}
	return cct.NewReader(t.path), false
}

func (t *claudeTranscript) Derive(cursor []byte) (*transcript.Derived, []byte, error) {
	r, restored := t.ahead, t.aheadRestored
	if r == nil || !bytes.Equal(cursor, t.aheadFrom) {
		// another hook moved the cursor meanwhile: read on from there
		r, restored = t.restore(cursor)
		if err := r.Update(); err != nil {
			return nil, nil, nil // not written yet
		}
	}
	settled := t.settleID != "" && r.Settle(t.settleID, t.settle)
	t.r = r
	if restored && !settled && !r.Moved() {
		// nothing new since the cursor, which the file was built from:
		// nothing to lay over it (and the cursor's state stays undecoded)
		return nil, nil, nil
	}
	t.d = r.Derive(transcript.NewRepoFinder().Repo)
	next, err := r.MarshalCursor()
	if err != nil {
		return t.d, nil, nil // a cursor not saved costs one full read next time, nothing more
	}
	return t.d, next, nil
}

// End removes the session's file and cursor: SessionEnd.
func (w *Writer) End(session string) error {
	return w.writer().End(session)
}

// Offers is what a request may switch, once the transcript says which
// tools Claude offers: before Claude's first request every name would be
// unknown, so the request waits. Claude Code cannot drop a tool or a skill
// mid-session, so a switch off is enforced by refusing the calls
// (PreToolUse); it cannot reload, so a reload is answered no.
func (t *claudeTranscript) Offers(*request.Request, status.Switches) (request.Available, bool) {
	if t.r == nil {
		return request.Available{}, false
	}
	offered, deferred := t.r.Tools()
	if len(offered) == 0 {
		return request.Available{}, false
	}
	return request.Available{Tools: append(slices.Clone(offered), deferred...), Active: offered, Skills: t.r.Skills()}, true
}

// claudeWords word a request's answer for Claude Code.
var claudeWords = request.Hooked{
	Dropped: "Claude Code cannot drop a tool or skill mid-session: jig refuses its calls",
	Idle:    "Claude is idle: applies from the next prompt",
	Busy:    "applies from the model's next request",
	Reload:  "reload: Claude Code cannot be reloaded from outside; restart it with claude --continue",
}
