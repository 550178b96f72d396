package bridge

import (
	"maps"
	"slices"
	"time"

	"jig/request"
	"jig/status"
)

// session is all the bridge knows of one OpenCode session.
type session struct {
	id        string
	startedAt time.Time
	cwd       string
	variant   string
	state     string
	agent     string // of the last model call: whose rules "on" gives back
	model     *status.Model
	window    *int64
	context   *int64                   // the last assistant message's tokens
	messages  map[string]messageTotals // assistant messages by id
	calls     []call                   // oldest first, the last MaxRecent kept
	outputs   map[string]status.Output // by path
	asks      []ask                    // waiting, oldest first
	switches  status.Switches
	answer    *status.Answer
	pending   *pendingRequest // rules sent to the plugin, not yet appended
	tools     status.Tools    // offered of those OpenCode defines, as the switches leave them
	last      *status.Status
}

// messageTotals is one assistant message's usage, as OpenCode counted it.
type messageTotals struct {
	tokens Tokens
	cost   float64
}

type call struct {
	id, tool string
	at       time.Time
	outcome  string
	path     string
	existed  bool
}

type ask struct {
	id, kind, tool, call string
	since                time.Time
}

func newSession(id string, now time.Time) *session {
	return &session{id: id, startedAt: now, state: status.Idle, messages: map[string]messageTotals{},
		outputs:  map[string]status.Output{},
		switches: status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}}}
}

// clone copies what taking a line changes in place, so a refused line can
// be undone.
func (ss *session) clone() session {
	c := *ss
	c.messages = maps.Clone(ss.messages)
	c.calls = slices.Clone(ss.calls)
	c.outputs = maps.Clone(ss.outputs)
	c.asks = slices.Clone(ss.asks)
	return c
}

// take lays one line over the session; false: nothing in it changes the file.
func (ss *session) take(m Message, now time.Time) bool {
	switch m.Type {
	case "session":
		if m.CWD != "" {
			ss.cwd = m.CWD
		}
		if m.Variant != "" {
			ss.variant = m.Variant
		}
	case "state":
		switch m.State {
		case "busy", "retry":
			ss.state = status.Busy
		case "idle":
			ss.state = status.Idle
			ss.asks = nil // nothing waits in an idle session
		default:
			return false
		}
	case "model":
		if m.Model == nil {
			return false
		}
		ss.agent = m.Agent
		ss.model = &status.Model{Provider: m.Model.ProviderID, ID: m.Model.ID, Name: m.Model.Name}
		if ss.model.Name == "" {
			ss.model.Name = m.Model.ID
		}
		if m.Model.Context > 0 {
			w := m.Model.Context
			ss.window = &w
		}
	case "message":
		if m.ID == "" || m.Tokens == nil {
			return false
		}
		t := messageTotals{tokens: *m.Tokens}
		if m.Cost != nil {
			t.cost = *m.Cost
		}
		ss.messages[m.ID] = t
		if n := m.Tokens.Sum(); n > 0 {
			ss.context = &n
		}
	case "call":
		ss.call(m, now)
	case "ask":
		if m.ID == "" || (m.Kind != status.AttentionPermission && m.Kind != status.AttentionQuestion) {
			return false
		}
		tool := m.Tool
		if c := ss.callByID(m.Call); c != nil {
			tool = c.tool
		}
		if !status.IsToolName(tool) {
			tool = ""
		}
		ss.asks = append(ss.asks, ask{id: m.ID, kind: m.Kind, tool: tool, call: m.Call, since: now})
	case "replied":
		ss.asks = slices.DeleteFunc(ss.asks, func(a ask) bool { return a.id == m.ID })
	case "applied":
	}
	return true
}

func (ss *session) callByID(id string) *call {
	for i := range ss.calls {
		if id != "" && ss.calls[i].id == id {
			return &ss.calls[i]
		}
	}
	return nil
}

// call takes a call's start or end: its outcome, the file a write or edit
// touched (created when it was not there before), and the end of what
// waited for it.
func (ss *session) call(m Message, now time.Time) {
	c := ss.callByID(m.ID)
	if c == nil {
		ss.calls = append(ss.calls, call{id: m.ID, tool: m.Tool, at: now, outcome: status.Pending})
		if len(ss.calls) > status.MaxRecent {
			ss.calls = slices.Delete(ss.calls, 0, len(ss.calls)-status.MaxRecent)
		}
		c = &ss.calls[len(ss.calls)-1]
	}
	if m.Path != "" {
		c.path = m.Path
	}
	if m.Existed != nil {
		c.existed = *m.Existed
	}
	if m.Phase != "end" {
		return
	}
	ss.asks = slices.DeleteFunc(ss.asks, func(a ask) bool { return a.call != "" && a.call == m.ID })
	if m.Error {
		c.outcome = status.Error
		return
	}
	c.outcome = status.OK
	if status.PlacedPath(c.path) {
		o := status.Output{Path: c.path, Action: status.Changed, At: now}
		if !c.existed || ss.outputs[c.path].Action == status.Created {
			o.Action = status.Created // created once stays created
		}
		ss.outputs[c.path] = o
	}
}

func (ss *session) outputList() []status.Output {
	outs := make([]status.Output, 0, len(ss.outputs))
	for _, o := range ss.outputs {
		outs = append(outs, o)
	}
	slices.SortFunc(outs, func(a, b status.Output) int { return b.At.Compare(a.At) })
	return outs
}

// usage sums the session's assistant messages as OpenCode counted and
// priced them: input without the cached part, output with reasoning.
func (ss *session) usage() status.Usage {
	var u status.Usage
	var cost float64
	for _, m := range ss.messages {
		u.Input += m.tokens.Input
		u.Output += m.tokens.Output + m.tokens.Reasoning
		u.CacheRead += m.tokens.Cache.Read
		u.CacheWrite += m.tokens.Cache.Write
		cost += m.cost
	}
	u.Cost = &cost
	return u
}

// edit is the session's part of its status, under the lock.
func (ss *session) edit(s, prev *status.Status) error {
	s.SessionFile = nil // OpenCode keeps its sessions in a database
	s.State = ss.state
	s.Model = ss.model
	s.Thinking = nil
	if ss.variant != "" {
		v := ss.variant
		s.Thinking = &v
	}
	s.Context = status.Context{Tokens: ss.context, Window: ss.window}
	s.Usage = ss.usage()
	s.Recent = make([]status.Call, 0, len(ss.calls))
	for i := len(ss.calls) - 1; i >= 0; i-- {
		c := ss.calls[i]
		tool := c.tool
		if request.CheckName(tool) != nil {
			tool = "?"
		}
		s.Recent = append(s.Recent, status.Call{At: c.at, Tool: tool, Outcome: c.outcome})
	}
	s.Attention = nil
	if n := len(ss.asks); n > 0 {
		a := ss.asks[n-1]
		s.Attention = &status.Attention{Kind: a.kind, Since: a.since, Tool: a.tool}
	}
	s.Tools = ss.tools
	s.Switches = status.Switches{Tools: maps.Clone(ss.switches.Tools), Skills: maps.Clone(ss.switches.Skills)}
	s.LastRequest = ss.answer
	s.StartedAt = ss.startedAt
	return nil
}
