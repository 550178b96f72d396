// Package conversation is what `jig serve` shows of an agent's transcript,
// in no agent's terms: messages, newest last, a page at a time from the end.
// Each agent's package reads its own transcripts into these types (Pi's in
// pi, Claude Code's in claude, Codex's in codex); serve knows none of them.
package conversation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"jig/status"
)

// Limits of one page: a page shows a screenful of turns, and no message,
// call input or result can make it large.
const (
	DefaultLimit = 40        // messages in a page, unless asked for fewer
	MaxLimit     = 200       // messages a page may be asked for
	MaxText      = 16 << 10  // bytes of one message's text
	MaxPart      = 4 << 10   // bytes of one call's input or result
	MaxLine      = 16 << 20  // a longer transcript line is skipped
	maxScan      = 256 << 20 // bytes read back for one page at most
)

// Message is one user or assistant message of the conversation.
type Message struct {
	// ID is the entry's id where the agent gives one: Pi forks at it.
	ID    string    `json:"id,omitempty"`
	Role  string    `json:"role"` // user or assistant
	Text  string    `json:"text"`
	At    time.Time `json:"at,omitzero"`
	Calls []Call    `json:"calls,omitempty"`
}

// Call is one tool call of an assistant message, with its result folded in
// when the transcript holds it.
type Call struct {
	ID     string `json:"-"`
	Name   string `json:"name"`
	Input  string `json:"input"`  // the arguments as JSON text, cut to MaxPart
	Result string `json:"result"` // cut to MaxPart; "" until it comes
	Error  bool   `json:"error"`
	Done   bool   `json:"done"` // the result is in
}

// Page asks for one page of the conversation.
type Page struct {
	Before string // "" for the newest page, else a Messages.Before
	Leaf   string // for a tree (Pi): the branch ending at this entry; "": the active one
	Limit  int    // messages; 0: DefaultLimit
}

// Messages is one page: oldest first.
type Messages struct {
	Messages []Message `json:"messages"`
	// Before is where the page before this one starts; "" when this page
	// reaches the conversation's start.
	Before string `json:"before"`
}

// Leaf is one branch end of a conversation that is a tree.
type Leaf struct {
	ID     string    `json:"id"`
	At     time.Time `json:"at,omitzero"`
	Active bool      `json:"active"`
	Depth  int       `json:"depth"`
	From   string    `json:"from,omitempty"`
	Prompt string    `json:"prompt,omitempty"`
	Name   string    `json:"name,omitempty"`
}

// Reader reads one agent's transcripts.
type Reader interface {
	Read(path string, page Page) (*Messages, error)
}

// Tree is a Reader whose transcripts are trees (Pi): its leaves, and a new
// session forked at an entry.
type Tree interface {
	Leaves(path string) ([]Leaf, error)
	Fork(path, at string) (newPath string, err error)
}

// Size is the page's limit, within bounds.
func (p Page) Size() int {
	switch {
	case p.Limit <= 0:
		return DefaultLimit
	case p.Limit > MaxLimit:
		return MaxLimit
	}
	return p.Limit
}

// Cut is s cut to at most n bytes, on a rune's start, with a mark.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i] + " …"
}

// Backward calls fn with each line of r that ends at or before end, newest
// first, with the offset it starts at, until fn returns false or the
// start. A line longer than MaxLine is skipped, and at most maxScan bytes
// are read. The line's bytes are valid only during the call.
func Backward(r io.ReaderAt, end int64, fn func(line []byte, off int64) bool) error {
	const chunk = 64 << 10
	var carry []byte  // a line's end whose start is further back
	skipping := false // carry's line is over MaxLine: its start is skipped too
	for pos, read := end, int64(0); pos > 0 && read < maxScan; {
		// A long line is read in steps as long as what is carried, so
		// reading it costs its length, not its length squared.
		n := min(max(chunk, int64(len(carry))), pos)
		pos -= n
		read += n
		block := make([]byte, n, n+int64(len(carry)))
		if _, err := r.ReadAt(block, pos); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		block = append(block, carry...)
		for {
			i := bytes.LastIndexByte(block, '\n')
			if i < 0 {
				break
			}
			line := block[i+1:]
			block = block[:i]
			if skipping || len(line) > MaxLine {
				skipping = false
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 && !fn(line, pos+int64(i)+1) {
				return nil
			}
		}
		carry = block
		if len(carry) > MaxLine {
			carry, skipping = nil, true
		}
	}
	if !skipping && len(bytes.TrimSpace(carry)) > 0 {
		fn(carry, 0)
	}
	return nil
}

// Result is a tool call's result, as a transcript gives it apart from the
// call.
type Result struct {
	Text  string
	Error bool
}

// Collector gathers a page while a transcript is read backwards: messages
// come newest first, results before the calls they answer. A page ends at
// a user message, so a turn's calls and results stay on one page.
type Collector struct {
	limit   int
	newest  []Message // newest first
	results map[string]Result
}

// NewCollector gathers a page of p's size.
func NewCollector(p Page) *Collector {
	return &Collector{limit: p.Size(), results: map[string]Result{}}
}

// Add takes the next older message. One with the ID of the message added
// just before (an agent that writes one reply as several entries) is
// merged into it.
func (c *Collector) Add(m Message) {
	m.Text = Cut(m.Text, MaxText)
	for i := range m.Calls {
		call := &m.Calls[i]
		call.Input = Cut(call.Input, MaxPart)
		// The newest result of that id not yet taken: an agent may reuse
		// a call id in a later turn.
		if r, ok := c.results[call.ID]; ok {
			call.Result, call.Error, call.Done = r.Text, r.Error, true
			delete(c.results, call.ID)
		}
	}
	if n := len(c.newest); n > 0 && m.ID != "" && c.newest[n-1].ID == m.ID && c.newest[n-1].Role == m.Role {
		last := &c.newest[n-1]
		last.Text = Cut(joinText(m.Text, last.Text), MaxText)
		last.Calls = append(m.Calls, last.Calls...)
		last.At = m.At
		return
	}
	if m.Text == "" && len(m.Calls) == 0 {
		return
	}
	c.newest = append(c.newest, m)
}

func joinText(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// Result takes the result of call id.
func (c *Collector) Result(id string, r Result) {
	if _, newer := c.results[id]; id != "" && !newer && len(c.results) < 4*MaxLimit {
		r.Text = Cut(r.Text, MaxPart)
		c.results[id] = r
	}
}

// Full says the page holds enough: its size, ending at a user message, or
// twice its size whatever ends it.
func (c *Collector) Full() bool {
	n := len(c.newest)
	return n >= 2*c.limit || n >= c.limit && c.newest[n-1].Role == "user"
}

// Page is the page gathered, oldest first.
func (c *Collector) Page(before string) *Messages {
	out := &Messages{Messages: make([]Message, 0, len(c.newest)), Before: before}
	for i := len(c.newest) - 1; i >= 0; i-- {
		out.Messages = append(out.Messages, c.newest[i])
	}
	return out
}

// ReadBack is a page of a transcript whose page cursor is a byte offset
// (Claude's, Codex's): the file read back from page.Before (its end when
// ""), each complete line handed to add until the page is full.
func ReadBack(path string, page Page, add func(line []byte, col *Collector)) (*Messages, error) {
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	end := fi.Size()
	if page.Before != "" {
		n, err := strconv.ParseInt(page.Before, 10, 64)
		if err != nil || n < 0 {
			return nil, status.Mark(status.ErrBadInput, fmt.Errorf("page %q: not one this reader gave", page.Before))
		}
		end = min(n, end)
	}
	col := NewCollector(page)
	before := ""
	err = Backward(f, end, func(b []byte, off int64) bool {
		add(b, col)
		if col.Full() {
			before = strconv.FormatInt(off, 10)
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return col.Page(before), nil
}
