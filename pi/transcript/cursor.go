package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
)

// cursorFormat changes when the saved shape does; an old cursor is dropped
// and the file read again. 2: no transcript text (format 1 kept the last
// bytes read and the paths of read calls).
const cursorFormat = 2

// maxPendingSaved bounds the calls without a result kept in a cursor.
const maxPendingSaved = 200

// cursor is what a Reader needs to carry on from where it stopped without
// the entries themselves: the file position, the running totals, and the
// branch state at the leaf. A new entry whose parent is not the leaf (after
// /tree in Pi) makes the next Update read the file again.
//
// It is a file jig writes, so it holds no value: the bytes it must find
// again are hashed, a file read is a pathKey. The only paths are those of
// write and edit calls (outputs, or calls waiting to become one).
type cursor struct {
	Format   int    `json:"format"`
	Path     string `json:"path"`
	Dev      uint64 `json:"dev"`
	Ino      uint64 `json:"ino"`
	Offset   int64  `json:"offset"`
	LineNo   int    `json:"lineNo"`
	HeadHash uint64 `json:"headHash"`
	HeadLen  int64  `json:"headLen"`
	TailHash uint64 `json:"tailHash"`
	TailLen  int64  `json:"tailLen"`

	Header  Header `json:"header"`
	Ordinal int    `json:"ordinal"`
	Newer1x bool   `json:"newer1x"`
	Entries int    `json:"entries"`
	Name    string `json:"name"`

	LeafID      string          `json:"leafId"`
	Model       *modelRef       `json:"model"`
	ModelChange *modelRef       `json:"modelChange"`
	Thinking    *string         `json:"thinking"`
	Compacted   bool            `json:"compacted"`
	HasValid    bool            `json:"hasValid"`
	ValidTokens int64           `json:"validTokens"`
	Trailing    int64           `json:"trailing"`
	Calls       []cursorCall    `json:"calls"` // oldest first
	Pending     []cursorPending `json:"pending"`

	Outputs map[string]output `json:"outputs"`
	Touched []uint64          `json:"touched"`
	Totals  usageTotals       `json:"totals"`
	Bad     []BadLine         `json:"bad"`
	BadN    int               `json:"badN"`
}

type cursorCall struct {
	Tool    string `json:"tool"`
	Action  uint8  `json:"action"`
	Outcome uint8  `json:"outcome"`
	At      int64  `json:"at"`
}

type cursorPending struct {
	ID   string `json:"id"`
	Call int32  `json:"call"` // index in Calls, -1 when not among them
	Tool string `json:"tool"`
	Path string `json:"path,omitempty"` // write, edit
	Read uint64 `json:"read,omitempty"` // read: the pathKey
}

func (o output) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]any{o.created, o.at})
}

func (o *output) UnmarshalJSON(b []byte) error {
	var v [2]json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := json.Unmarshal(v[0], &o.created); err != nil {
		return err
	}
	return json.Unmarshal(v[1], &o.at)
}

// MarshalCursor saves where the Reader stands, small whatever the file's
// size: the leaf's branch state, not the entries.
func (r *Reader) MarshalCursor() ([]byte, error) {
	c := cursor{Format: cursorFormat, Path: r.path, Dev: r.dev, Ino: r.ino, Offset: r.offset, LineNo: r.lineNo,
		HeadHash: r.headHash, HeadLen: r.headLen, TailHash: r.tailHash, TailLen: r.tailSize, Header: r.header, Ordinal: r.ordinal,
		Newer1x: r.newer1x, Entries: r.entries, Name: r.name, LeafID: r.leafID, Totals: r.totals,
		Bad: r.bad, BadN: r.badN, Outputs: map[string]output{}}
	if !r.hasHeader {
		c.Offset, c.LineNo = 0, 0 // nothing worth keeping before the header
	}
	for p, o := range r.outputs {
		c.Outputs[p] = *o
	}
	for k := range r.touched {
		c.Touched = append(c.Touched, k)
	}
	inCalls := map[int32]int32{}
	if r.leaf >= 0 {
		n := r.nodes[r.leaf]
		if n.model >= 0 {
			c.Model = &r.models[n.model]
		}
		if n.modelChange >= 0 {
			c.ModelChange = &r.models[n.modelChange]
		}
		if n.thinking >= 0 {
			c.Thinking = &r.strs[n.thinking]
		}
		c.Compacted, c.HasValid, c.ValidTokens, c.Trailing = n.compacted, n.hasValid, n.validTokens, n.trailing
		var chain []int32
		for i := n.calls; i >= 0 && len(chain) < 15; i = r.calls[i].prev {
			chain = append(chain, i)
		}
		for j := len(chain) - 1; j >= 0; j-- {
			cl := r.calls[chain[j]]
			inCalls[chain[j]] = int32(len(c.Calls))
			c.Calls = append(c.Calls, cursorCall{Tool: r.strs[cl.tool], Action: cl.action, Outcome: cl.outcome, At: cl.at})
		}
	}
	for id, p := range r.pending {
		at, ok := inCalls[p.call]
		if !ok {
			if len(c.Pending) >= maxPendingSaved {
				continue
			}
			at = -1
		}
		c.Pending = append(c.Pending, cursorPending{ID: id, Call: at, Tool: p.tool, Path: p.path, Read: p.read})
	}
	return json.Marshal(&c)
}

// RestoreReader rebuilds a Reader for path from MarshalCursor's bytes. A
// cursor for another path or format is an error: read the file afresh.
func RestoreReader(path string, data []byte) (*Reader, error) {
	var c cursor
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	if c.Format != cursorFormat {
		return nil, fmt.Errorf("cursor: format %d, want %d", c.Format, cursorFormat)
	}
	if c.Path != path {
		return nil, errors.New("cursor: for another file")
	}
	if c.Offset < 0 || c.HeadLen < 0 || c.HeadLen > HeaderWindow || c.HeadLen > c.Offset || c.TailLen < 0 || c.TailLen > tailLen || c.TailLen > c.Offset {
		return nil, errors.New("cursor: out of range")
	}
	r := NewReader(path)
	r.dev, r.ino, r.offset, r.lineNo = c.Dev, c.Ino, c.Offset, c.LineNo
	r.headHash, r.headLen, r.tailHash, r.tailSize = c.HeadHash, c.HeadLen, c.TailHash, c.TailLen
	r.hasHeader = c.Offset > 0
	r.header, r.ordinal, r.newer1x, r.entries, r.name = c.Header, c.Ordinal, c.Newer1x, c.Entries, c.Name
	r.totals, r.bad, r.badN = c.Totals, c.Bad, c.BadN
	for p, o := range c.Outputs {
		o := o
		r.outputs[p] = &o
	}
	for _, k := range c.Touched {
		r.touched[k] = true
	}
	for i, cl := range c.Calls {
		if int(cl.Action) >= len(actions) || cl.Outcome > outcomeError {
			return nil, errors.New("cursor: bad call")
		}
		r.calls = append(r.calls, call{prev: int32(i) - 1, tool: r.intern(cl.Tool), action: cl.Action, outcome: cl.Outcome, at: cl.At})
	}
	for _, p := range c.Pending {
		if p.Call >= int32(len(r.calls)) {
			p.Call = -1
		}
		r.pending[p.ID] = pendingCall{call: p.Call, tool: p.Tool, path: p.Path, read: p.Read}
	}
	if c.LeafID != "" {
		n := node{parent: -1, model: -1, modelChange: -1, thinking: -1, calls: int32(len(r.calls)) - 1,
			compacted: c.Compacted, hasValid: c.HasValid, validTokens: c.ValidTokens, trailing: c.Trailing}
		if c.Model != nil {
			n.model = r.model(c.Model.Provider, c.Model.ID)
		}
		if c.ModelChange != nil {
			n.modelChange = r.model(c.ModelChange.Provider, c.ModelChange.ID)
		}
		if c.Thinking != nil {
			n.thinking = r.intern(*c.Thinking)
		}
		r.nodes = append(r.nodes, n)
		r.leaf, r.leafID, r.leafText = 0, c.LeafID, []byte(c.LeafID)
		if r.header.Version >= 2 {
			r.ids.add(r.leafText, 0)
		}
		r.partial = true
	}
	return r, nil
}
