// Package status is jig's status file: one small JSON document per live agent
// session, schema 1, written in one step under the state dir and read by side
// panels, status lines and scripts.
//
// Who writes: the session itself (the Pi bridge, or `jig session write` from a
// hook). Who reads: anyone on the same machine who can read the state dir.
// What is promised: a reader sees the old file or the new one, never half of
// one; a field may be added without a new schema number; removing or renaming
// one, or changing its meaning, needs schema 2. Readers ignore fields they do
// not know. docs/status-format.md is the written contract.
package status

import (
	"encoding/json"
	"fmt"
	"time"
)

// Schema is the version of the format this package writes and reads.
const Schema = 1

// Limits from the contract.
const (
	MaxOutputsPerKind = 50 // outputs with repo null, and again with a repo
	MaxRecent         = 15
)

// Agents a session may be.
const (
	AgentPi     = "pi"
	AgentClaude = "claude-code"
	AgentCodex  = "codex"
)

// States of a session.
const (
	Busy = "busy"
	Idle = "idle"
)

// Status is one session's file. Field order is the file's order; `terminals`
// and `host` sit early so a reader scanning the head of a file finds them.
type Status struct {
	Schema        int            `json:"schema"`
	Session       string         `json:"session"`
	PID           int            `json:"pid"`
	PIDStart      string         `json:"pidStart,omitempty"` // which process pid is: boot id / start ticks (Linux)
	Host          string         `json:"host"`
	CWD           string         `json:"cwd"`
	Terminal      *string        `json:"terminal"`
	TerminalFrom  *string        `json:"terminalFrom"`
	Terminals     []TerminalID   `json:"terminals"`
	Agent         string         `json:"agent"` // which agent: Agent* below, "" when unknown
	AgentDir      string         `json:"agentDir"`
	SessionFile   *string        `json:"sessionFile"`
	Model         *Model         `json:"model"`
	Thinking      *string        `json:"thinking"`
	State         string         `json:"state"`
	StateSince    *time.Time     `json:"stateSince"` // when state last changed; null when the writer did not say
	Attention     *Attention     `json:"attention"`  // what the session waits for from the person; null: nothing
	Context       Context        `json:"context"`
	Usage         Usage          `json:"usage"`
	RateLimits    *RateLimits    `json:"rateLimits"` // the account's usage windows, when the agent says them
	Tools         Tools          `json:"tools"`
	Switches      Switches       `json:"switches"`
	Ticket        *Ticket        `json:"ticket"`
	Workflow      *Workflow      `json:"workflow"`
	Outputs       []Output       `json:"outputs"`
	Recent        []Call         `json:"recent"`
	ContextDetail *ContextDetail `json:"contextDetail"`
	LastRequest   *Answer        `json:"lastRequest"`
	StartedAt     time.Time      `json:"startedAt"`
	UpdatedAt     time.Time      `json:"updatedAt"`

	raw []byte // the document as read, unknown fields and all
}

// Raw is the document s was decoded from, byte for byte (nil for a status
// built in memory). Readers pass it on so fields this jig does not know
// survive.
func (s *Status) Raw() []byte { return s.raw }

// TerminalID is one terminal the session runs in, as its host names it.
// From is the environment variable that named it (HC_TERMINAL_ID, HERDR_PANE_ID,
// TMUX_PANE, KITTY_WINDOW_ID, WEZTERM_PANE). Instance is the host instance
// whose id it is, when the host says (a tmux server's socket: each server
// has its own %0); package terminal fills it.
type TerminalID struct {
	From     string `json:"from"`
	ID       string `json:"id"`
	Instance string `json:"instance,omitempty"`
}

type Model struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Name     string `json:"name"`
}

// Context is how full the model's context window is. Each value may be
// unknown (null): tokens right after a compaction, window without the live agent.
type Context struct {
	Tokens  *int64   `json:"tokens"`
	Window  *int64   `json:"window"`
	Percent *float64 `json:"percent"`
}

// Usage is the session's token and cost totals. Cost is null when any call
// had no price.
type Usage struct {
	Input      int64    `json:"input"`
	Output     int64    `json:"output"`
	CacheRead  int64    `json:"cacheRead"`
	CacheWrite int64    `json:"cacheWrite"`
	Cost       *float64 `json:"cost"`
}

// Attention is what a session waits for from the person (added to schema 1
// by jig). State keeps its meaning beside it: a call waiting for approval
// is busy, a run stopped on an error idle.
type Attention struct {
	Kind  string    `json:"kind"`           // Attention* below
	Since time.Time `json:"since"`          // when the wait began; zero: Dir.Update settles it
	Tool  string    `json:"tool,omitempty"` // the tool waiting, a name only
}

// Attention kinds.
const (
	AttentionPermission = "permission" // a tool call waits for the person's approval
	AttentionQuestion   = "question"   // the agent asked the person something and waits
	AttentionError      = "error"      // the run stopped on an error and waits
)

// RateLimits are the account's usage windows as the agent reports them
// (added to schema 1 by jig): Claude Code's statusLine rate_limits, Codex's
// token_count rate limits. A window the agent did not report is null.
type RateLimits struct {
	FiveHour *RateLimit `json:"fiveHour"`
	Weekly   *RateLimit `json:"weekly"`
}

// RateLimit is one window: how much of it is used, and when it starts
// again (null when the agent did not say).
type RateLimit struct {
	UsedPercent float64    `json:"usedPercent"`
	ResetsAt    *time.Time `json:"resetsAt"`
}

// The windows' lengths, in minutes, as the agents report them.
const (
	FiveHourMinutes = 5 * 60
	WeeklyMinutes   = 7 * 24 * 60
)

// Window files a window the agent reports by its length (Claude names
// its two, Codex gives window_minutes): five hours is FiveHour, seven days
// Weekly. resetsAt is in seconds since the epoch, as both say it (0: not
// said). A window of another length, or a percent outside 0–100 (an
// agent's line is input: 1e308 is no share of a limit), is left out: it
// reports whether the window was kept.
func (r *RateLimits) Window(minutes int64, usedPercent, resetsAt float64) bool {
	var slot **RateLimit
	switch minutes {
	case FiveHourMinutes:
		slot = &r.FiveHour
	case WeeklyMinutes:
		slot = &r.Weekly
	default:
		return false
	}
	if !(usedPercent >= 0 && usedPercent <= 100) {
		return false
	}
	w := &RateLimit{UsedPercent: usedPercent}
	if resetsAt > 0 {
		t := time.Unix(0, int64(resetsAt*1e9)).UTC()
		w.ResetsAt = &t
	}
	*slot = w
	return true
}

// Tools counts the tools declared to the model (active) and registered (total).
type Tools struct {
	Active int `json:"active"`
	Total  int `json:"total"`
}

// Switches are the tools and skills turned on (true) or off (false) by
// request for this session. Added to schema 1 by jig.
type Switches struct {
	Tools  map[string]bool `json:"tools"`
	Skills map[string]bool `json:"skills"`
}

type Ticket struct {
	Key   string `json:"key"`
	Title string `json:"title,omitempty"`
	URL   string `json:"url,omitempty"`
	From  string `json:"from,omitempty"` // event | choice | branch: where the key came from (added by jig)
}

type Workflow struct {
	Name    string            `json:"name"`
	Stages  []string          `json:"stages"`
	Current string            `json:"current"`
	Since   string            `json:"since,omitempty"`
	PRs     []json.RawMessage `json:"prs"`
	Problem string            `json:"problem,omitempty"`
}

// Output is a file the session created or changed. Repo is the git work tree
// holding it, null when none.
type Output struct {
	Path   string    `json:"path"`
	Action string    `json:"action"` // created | changed
	At     time.Time `json:"at"`
	Repo   *string   `json:"repo"`
}

// Output actions.
const (
	Created = "created"
	Changed = "changed"
)

// Call is one tool call: names only, never an argument value.
type Call struct {
	At       time.Time `json:"at"`
	Tool     string    `json:"tool"`
	Action   string    `json:"action,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Answer   string    `json:"answer,omitempty"`
	Outcome  string    `json:"outcome"` // ok | error | pending
}

// Call outcomes.
const (
	OK      = "ok"
	Error   = "error"
	Pending = "pending"
)

// ContextDetail is what fills the context, part by part, and the tools,
// skills and context files behind it. Tokens are estimates (chars/4) except
// where the model reported them.
type ContextDetail struct {
	Window *int64        `json:"window"`
	Tokens int64         `json:"tokens"`
	Parts  []ContextPart `json:"parts"`
	Tools  []ContextItem `json:"tools"`
	Skills []ContextItem `json:"skills"`
	Files  []ContextItem `json:"files"`
}

// ContextPart is one slice of the context: system, tools, skills, files,
// messages, toolResults, and so on.
type ContextPart struct {
	Name   string `json:"name"`
	Tokens int64  `json:"tokens"`
}

// ContextItem is one tool, skill or context file and its share of the
// context. Off: switched off by a request. Inactive: not offered to the
// model, but not by a request (a tool Pi leaves inactive by default, such
// as grep; added to schema 1 by jig).
type ContextItem struct {
	Name     string `json:"name"`
	Source   string `json:"source,omitempty"`
	Tokens   int64  `json:"tokens"`
	Off      bool   `json:"off,omitempty"`
	Inactive bool   `json:"inactive,omitempty"`
}

// Answer is the session's answer to the last request it took. Covers lists
// the ids of earlier requests merged into it while it waited, so their
// waiters recognise the answer too (added to schema 1 by jig).
type Answer struct {
	ID      string    `json:"id"`
	OK      bool      `json:"ok"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
	Reload  *bool     `json:"reload,omitempty"`
	Covers  []string  `json:"covers,omitempty"`
}

// Normalize fills the contract's defaults so lists are [] rather than null
// and maps {} rather than null, and trims lists to their limits.
func (s *Status) Normalize() {
	if s.Schema == 0 {
		s.Schema = Schema
	}
	if s.State == "" {
		s.State = Idle
	}
	if s.Terminals == nil {
		s.Terminals = []TerminalID{}
	}
	if s.Terminal != nil && *s.Terminal != "" && !s.listsTerminal(*s.Terminal) {
		// terminals holds every id, terminal included: the index is built from it.
		t := TerminalID{ID: *s.Terminal}
		if s.TerminalFrom != nil {
			t.From = *s.TerminalFrom
		}
		s.Terminals = append([]TerminalID{t}, s.Terminals...)
	}
	if s.Outputs == nil {
		s.Outputs = []Output{}
	}
	if s.Recent == nil {
		s.Recent = []Call{}
	}
	if len(s.Recent) > MaxRecent {
		s.Recent = s.Recent[:MaxRecent]
	}
	if s.Switches.Tools == nil {
		s.Switches.Tools = map[string]bool{}
	}
	if s.Switches.Skills == nil {
		s.Switches.Skills = map[string]bool{}
	}
	s.Outputs = LimitOutputs(s.Outputs)
	s.Bound()
	if s.Context.Percent == nil && s.Context.Tokens != nil && s.Context.Window != nil && *s.Context.Window > 0 {
		p := float64(*s.Context.Tokens) / float64(*s.Context.Window) * 100
		s.Context.Percent = &p
	}
}

// LimitOutputs keeps the outputs in their order, up to 50 with a repo and
// 50 without.
func LimitOutputs(outs []Output) []Output {
	var withRepo, without int
	kept := outs[:0:0]
	for _, o := range outs {
		if o.Repo == nil {
			if without == MaxOutputsPerKind {
				continue
			}
			without++
		} else {
			if withRepo == MaxOutputsPerKind {
				continue
			}
			withRepo++
		}
		kept = append(kept, o)
	}
	return kept
}

// Validate says what is wrong with a status that is about to be written.
func (s *Status) Validate() error {
	switch {
	case s.Schema != Schema:
		return fmt.Errorf("schema %d: this jig writes schema %d", s.Schema, Schema)
	case s.Session == "":
		return fmt.Errorf("no session id")
	case s.PID <= 0:
		return fmt.Errorf("pid %d: want a process id", s.PID)
	case s.State != Busy && s.State != Idle:
		return fmt.Errorf("state %q: want %q or %q", s.State, Busy, Idle)
	}
	if err := s.validateAttention(); err != nil {
		return err
	}
	if err := s.validateFields(); err != nil {
		return err
	}
	for _, o := range s.Outputs {
		if o.Action != Created && o.Action != Changed {
			return fmt.Errorf("output action %q: want %q or %q", o.Action, Created, Changed)
		}
	}
	for _, c := range s.Recent {
		if c.Outcome != OK && c.Outcome != Error && c.Outcome != Pending {
			return fmt.Errorf("recent outcome %q: want ok, error or pending", c.Outcome)
		}
	}
	return nil
}

// settleAttention gives an attention without a since the time its wait
// began: the previous file's while the same wait (kind and tool) goes on,
// else now. So a writer that only knows "it waits" keeps the first time.
func (s *Status) settleAttention(prev *Status, now time.Time) {
	a := s.Attention
	if a == nil || !a.Since.IsZero() {
		return
	}
	if prev != nil && prev.Attention != nil && prev.Attention.Kind == a.Kind && prev.Attention.Tool == a.Tool {
		a.Since = prev.Attention.Since
		return
	}
	a.Since = now.UTC()
}

// validateAttention refuses an attention or a rate limit that says
// something the contract does not: an unknown kind, a tool that is not a
// name, a negative percent.
func (s *Status) validateAttention() error {
	if a := s.Attention; a != nil {
		switch {
		case a.Kind != AttentionPermission && a.Kind != AttentionQuestion && a.Kind != AttentionError:
			return fmt.Errorf("attention kind %q: want %s, %s or %s", Cut(a.Kind), AttentionPermission, AttentionQuestion, AttentionError)
		case !IsToolName(a.Tool):
			return fmt.Errorf("attention tool %q: want a tool's name, never an argument value", Cut(a.Tool))
		}
	}
	if r := s.RateLimits; r != nil {
		for _, w := range [...]struct {
			name string
			w    *RateLimit
		}{{"fiveHour", r.FiveHour}, {"weekly", r.Weekly}} {
			if w.w != nil && w.w.UsedPercent < 0 {
				return fmt.Errorf("rateLimits.%s.usedPercent %v: want 0 or more", w.name, w.w.UsedPercent)
			}
		}
	}
	return nil
}

// HasTerminal reports whether the session runs in the terminal id, of
// whichever host instance (Liveness.InTerminal matches the reader's).
func (s *Status) HasTerminal(id string) bool {
	return s.inTerminal(id, nil)
}

func (s *Status) listsTerminal(id string) bool {
	for _, t := range s.Terminals {
		if t.ID == id {
			return true
		}
	}
	return false
}
