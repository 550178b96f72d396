package bridge

import (
	"jig/opencode"
	"jig/status"
)

// resumedSession is a session read back through opencode export.
type resumedSession struct {
	id       string
	exported *opencode.Exported
}

// readBack reads a session this process did not create (opencode -c,
// --session, a session picked in the TUI) back through opencode export,
// off the loop: what it did before keeps its outputs, usage and calls.
func (b *Bridge) readBack(id string) {
	if b.bin == "" {
		return
	}
	export := b.Export
	if export == nil {
		export = opencode.CLI{Bin: b.bin}.Export // opencode's own environment, the bridge's
	}
	go func() {
		e, err := export(id)
		if err == nil {
			b.resumed <- resumedSession{id, e}
		}
	}()
}

// takeResumed lays what the export says under what this process saw: a
// message or call seen live wins, an output seen live keeps its action
// unless the export says it was created.
func (b *Bridge) takeResumed(r resumedSession) {
	ss, ok := b.sessions[r.id]
	if !ok {
		return
	}
	var lastContext *int64
	for _, m := range r.exported.Messages {
		t := m.Info.Tokens
		if m.Info.Role != "assistant" || t == nil || m.Info.ID == "" {
			continue
		}
		if _, live := ss.messages[m.Info.ID]; !live {
			var tok Tokens
			tok.Total, tok.Input, tok.Output, tok.Reasoning = t.Total, t.Input, t.Output, t.Reasoning
			tok.Cache.Read, tok.Cache.Write = t.Cache.Read, t.Cache.Write
			ss.messages[m.Info.ID] = messageTotals{tokens: tok, cost: m.Info.Cost}
			if n := tok.Sum(); n > 0 {
				lastContext = &n
			}
		}
	}
	if ss.context == nil {
		ss.context = lastContext
	}
	var earlier []call
	for _, c := range r.exported.Calls() {
		if ss.callByID(c.ID) == nil {
			earlier = append(earlier, call{id: c.ID, tool: c.Tool, at: c.At, outcome: c.Outcome, path: c.Path, existed: !c.Created})
		}
	}
	ss.calls = append(earlier, ss.calls...)
	if n := len(ss.calls); n > status.MaxRecent {
		ss.calls = ss.calls[n-status.MaxRecent:]
	}
	for _, o := range r.exported.Outputs() {
		if live, ok := ss.outputs[o.Path]; ok {
			if o.Action == status.Created {
				live.Action = status.Created
				ss.outputs[o.Path] = live
			}
			continue
		}
		ss.outputs[o.Path] = o
	}
	if m := r.exported.Info.Model; m != nil && ss.variant == "" {
		ss.variant = m.Variant
	}
	b.write(ss)
}
