// Package transcript reads Pi's session files (.jsonl) the way Pi's own
// loader does: the header, every entry version, the branch to the leaf,
// totals, outputs and recent calls, read again incrementally from a cursor
// that holds no transcript text. docs/transcript.md describes what is read.
package transcript

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"jig/status"
	base "jig/transcript"
)

// Limits.
const (
	HeaderWindow = 64 << 10 // the header must end within the first 64 KB
	MaxLine      = 32 << 20 // a longer line is skipped unread (Pi would parse it)
	maxBadKept   = 1000     // bad lines remembered for warnings (all are counted)
	tailLen      = 64       // bytes before the cursor that must not change (hashed)
)

// ErrNotSession is returned for a file whose first JSON line is not a Pi
// session header, and by UpdateSession for a file with no header line yet.
var ErrNotSession = status.Mark(status.ErrBadInput, errors.New("not a Pi session: no session header line in the first 64 KB"))

// ErrNotRegular is returned for a fifo, a folder, a device: anything where a
// session file should be that is no regular file.
var ErrNotRegular = status.ErrNotRegular

// fileError names the file once, "FILE: cause", without the os package's
// "open FILE:" before the cause.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// Header is the session's first line.
type Header struct {
	Version       int    `json:"version"` // 1 when absent
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp"`
	CWD           string `json:"cwd"`
	ParentSession string `json:"parentSession,omitempty"` // v1: branchedFrom
	Provider      string `json:"provider,omitempty"`      // v1 headers only
	ModelID       string `json:"modelId,omitempty"`
	ThinkingLevel string `json:"thinkingLevel,omitempty"`
}

// BadLine is a line Pi would skip: not one JSON object, or too long.
type BadLine struct {
	Line   int    `json:"line"`
	Offset int64  `json:"offset"`
	Reason string `json:"reason"`
}

// node is one entry's place in the tree and what holds on the branch
// ending at it. Entries inherit from their parent, so the branch of any
// leaf is known without walking it.
type node struct {
	parent      int32 // index in nodes, -1 for a root
	model       int32 // latest model_change or assistant model on the branch
	modelChange int32 // latest model_change on the branch
	thinking    int32 // index in strs, -1: off
	calls       int32 // the newest tool call on the branch, index in calls
	compacted   bool  // a compaction is on the branch
	hasValid    bool  // an assistant with usage, not aborted or error, since the root or the compaction
	validTokens int64 // its calculateContextTokens
	trailing    int64 // estimated tokens of the context messages after it
}

// call is one tool call on some branch.
type call struct {
	prev    int32 // the call before it on its branch
	tool    int32 // index in strs
	action  uint8
	outcome uint8
	at      int64  // unix ms: when the model asked for it
	id      string // the tool call's id, for matching live events to it
}

// pendingCall waits for its toolResult.
type pendingCall struct {
	call int32 // index in calls, -1 once the calls were dropped
	tool string
	path string // write and edit: the file, resolved (it becomes an output)
	read uint64 // read: pathKey of the file; a read path is never kept
}

// output is a file a successful write or edit touched.
type output struct {
	created bool
	at      int64
}

// Reader reads one transcript incrementally: each Update reads only the
// bytes appended since the last one, unless the file was replaced, shrank or
// was rewritten, in which case it starts again. A Reader is not safe for
// concurrent use.
type Reader struct {
	// Home expands a leading ~ in tool paths, as Pi does; empty leaves such
	// paths as written.
	Home string

	path string

	// cursor
	dev, ino  uint64
	size      int64
	offset    int64
	lineNo    int
	headHash  uint64
	headLen   int64
	tailHash  uint64 // of the tailLen bytes before offset (fewer near the start)
	tailSize  int64
	hasHeader bool

	header         Header
	ordinal        int  // Pi's index of the next parsed line (the header is 0)
	partial        bool // restored from a cursor: only the leaf's node is known
	newer1x        bool // the file shows Pi 1.x (system messages, usage or context_edit entries)
	nodes          []node
	ids            idIndex // entry id → node (files with ids)
	leaf           int32
	leafID         string
	leafText       []byte // the leaf's id while reading; leafID once read
	leafMoved      bool   // leafText is newer than leafID
	calls          []call
	pending        map[string]pendingCall
	outputs        map[string]*output
	touched        map[uint64]bool // pathKey of every file read, written or edited
	sorted         []status.Output // outputs, newest first, for Derive
	outputsChanged bool
	strs           []string
	strIdx         map[string]int32
	models         []modelRef
	modelIdx       map[modelRef]int32
	name           string

	totals  usageTotals
	entries int
	bad     []BadLine
	badN    int

	// visit, when set, sees each entry's line before it joins the tree and
	// may keep it out (tree.go: jig pi tree records every branch; show
	// --leaf and fork keep one).
	visit func(l *line, b []byte, off int64) bool

	file    *os.File // the file being read, during read
	sc      scanner
	scratch []byte
	ln      line
	buf     []byte
}

type modelRef struct{ Provider, ID string }

type usageTotals struct {
	Input, Output, CacheRead, CacheWrite int64
	Cost                                 float64
	Unpriced                             int // usages with no cost
}

// NewReader prepares to read the transcript at path. It does no I/O.
func NewReader(path string) *Reader {
	r := &Reader{path: path}
	r.reset()
	return r
}

// Unread is how many bytes follow the last complete line when Update last
// looked: a line Pi is still writing.
func (r *Reader) Unread() int64 { return r.size - r.offset }

// Offset is how many bytes have been consumed: complete lines only.
func (r *Reader) Offset() int64 { return r.offset }

func (r *Reader) reset() {
	*r = Reader{Home: r.Home, path: r.path, visit: r.visit, sc: r.sc, buf: r.buf, scratch: r.scratch}
	r.leaf = -1
	r.ids = idIndex{long: map[string]int32{}}
	r.pending = map[string]pendingCall{}
	r.outputs = map[string]*output{}
	r.touched = map[uint64]bool{}
	r.strIdx = map[string]int32{}
	r.modelIdx = map[modelRef]int32{}
}

// Update reads what was appended since the last call. A last line without
// its newline is left for later: Pi may be writing it. An empty file, or one
// whose header line is not complete yet, is no error: it has no header yet.
// Errors name the file.
func (r *Reader) Update() error {
	if err := r.update(); err != nil {
		return fileError(r.path, err)
	}
	return nil
}

// UpdateSession is Update for a command run once on a file (jig pi show,
// jig session write --transcript): the file must be a Pi session now, so
// one with no complete header line (empty, binary, half a header) is
// ErrNotSession, as it is to Pi.
func (r *Reader) UpdateSession() error {
	if err := r.Update(); err != nil {
		return err
	}
	if !r.hasHeader {
		return fileError(r.path, ErrNotSession)
	}
	return nil
}

func (r *Reader) update() error {
	f, fi, err := openRegular(r.path)
	if err != nil {
		return err
	}
	defer f.Close()
	var dev, ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		dev, ino = uint64(st.Dev), uint64(st.Ino)
	}
	if r.offset > 0 && !r.same(f, dev, ino, fi.Size()) {
		r.reset()
	}
	r.dev, r.ino, r.size = dev, ino, fi.Size()
	err = r.read(f)
	if errors.Is(err, errBranchUnknown) {
		// a restored cursor knows only the leaf; a new branch off an older
		// entry needs the whole file
		r.reset()
		r.dev, r.ino, r.size = dev, ino, fi.Size()
		err = r.read(f)
	}
	if err != nil {
		return err
	}
	if r.offset > 0 {
		r.tailSize = min(r.offset, tailLen)
		if r.tailHash, err = r.hashAt(f, r.offset-r.tailSize, r.tailSize); err != nil {
			return err
		}
	}
	return nil
}

// openRegular opens a session file for reading as status.OpenFile does:
// never blocking on a fifo planted there, refusing anything but a regular
// file.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	return status.OpenFile(path, status.FollowLinks, status.AnySize)
}

// same reports whether the file is still the one read up to r.offset: the
// same inode, not shorter, the same header line and the same bytes just
// before the cursor (Pi rewrites a file in place when it migrates it).
// Both are compared by hash: a cursor keeps no transcript text.
func (r *Reader) same(f *os.File, dev, ino uint64, size int64) bool {
	if dev != r.dev || ino != r.ino || size < r.offset {
		return false
	}
	if r.headLen > 0 {
		h, err := r.hashAt(f, 0, r.headLen)
		if err != nil || h != r.headHash {
			return false
		}
	}
	if r.tailSize > 0 {
		h, err := r.hashAt(f, r.offset-r.tailSize, r.tailSize)
		if err != nil || h != r.tailHash {
			return false
		}
	}
	return true
}

// hashAt hashes n bytes of the file from off as it has them now.
func (r *Reader) hashAt(f *os.File, off, n int64) (uint64, error) {
	b := r.scratchN(int(n))
	if _, err := f.ReadAt(b, off); err != nil {
		return 0, err
	}
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64(), nil
}

// pathKey stands for a file the session touched: whether it was touched
// decides created or changed later, and the key does not show which file.
func pathKey(path string) uint64 {
	// FNV-1a, as hash/fnv's New64a, without its []byte copy of the path
	h := uint64(14695981039346656037)
	for i := 0; i < len(path); i++ {
		h = (h ^ uint64(path[i])) * 1099511628211
	}
	return h
}

func (r *Reader) scratchN(n int) []byte {
	if cap(r.scratch) < n {
		r.scratch = make([]byte, n)
	}
	return r.scratch[:n]
}

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

var errBranchUnknown = errors.New("entry on a branch the cursor does not hold")

// read consumes complete lines from r.offset on.
func (r *Reader) read(f *os.File) error {
	r.file = f
	defer func() {
		r.file = nil
		if r.leafMoved {
			r.leafID, r.leafMoved = string(r.leafText), false
		}
	}()
	lines := func(f io.ReaderAt, size int64) (err error) {
		r.offset, r.buf, err = base.Lines(f, r.offset, size, r.buf, lineLimit,
			func(b []byte, off int64) error {
				r.lineNo++
				return r.line(b, off)
			},
			func(off int64) {
				r.lineNo++
				r.badLine(off, "line too long")
			})
		return err
	}
	if !r.hasHeader && r.size > HeaderWindow {
		// The header ends within HeaderWindow or the file is no session:
		// read no further to find out (a 1 GB file of one line is not read
		// through).
		if err := lines(io.NewSectionReader(f, 0, HeaderWindow), HeaderWindow); err != nil {
			return err
		}
		if !r.hasHeader {
			return ErrNotSession
		}
	}
	if err := lines(f, r.size); err != nil {
		return err
	}
	if !r.hasHeader && r.offset > 0 {
		// complete lines, none of them a header: Pi writes the header first
		return ErrNotSession
	}
	return nil
}

func (r *Reader) badLine(off int64, reason string) {
	r.badN++
	if len(r.bad) < maxBadKept {
		r.bad = append(r.bad, BadLine{Line: r.lineNo, Offset: off, Reason: reason})
	}
}

// line handles one complete line (without its newline).
func (r *Reader) line(b []byte, off int64) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil // Pi skips blank lines silently
	}
	if r.lineNo == 1 && bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		b = b[3:] // Pi trims the file, which drops a byte-order mark
	}
	l := &r.ln
	if !parseLine(&r.sc, b, l) {
		r.badLine(off, "not one JSON object")
		return nil
	}
	if !r.hasHeader {
		if l.typ != "session" || !l.hasID || off+int64(len(b)) >= HeaderWindow {
			return ErrNotSession
		}
		r.setHeader(l)
		r.headLen = off + int64(len(b)) + 1
		h, err := r.hashAt(r.file, 0, r.headLen)
		if err != nil {
			return err
		}
		r.headHash = h
		r.ordinal = 1
		return nil
	}
	ord := r.ordinal
	r.ordinal++
	if l.typ == "session" {
		return nil // a second header is no entry (Pi filters it out)
	}
	if r.visit != nil && !r.visit(l, b, off) {
		return nil
	}
	return r.entry(l, ord)
}

func (r *Reader) setHeader(l *line) {
	r.hasHeader = true
	v := int(l.version)
	if v == 0 {
		v = 1
	}
	parent := l.parentSession
	if parent == "" {
		parent = l.branchedFrom
	}
	model := l.modelID
	if model == "" {
		model = l.modelLegacy
	}
	r.header = Header{Version: v, ID: l.id.text(), Timestamp: l.timestamp, CWD: l.cwd, ParentSession: parent,
		Provider: l.provider, ModelID: model, ThinkingLevel: l.thinkingLevel}
}

// v1ID is the id jig gives a v1 entry: its index among the parsed lines,
// the index Pi's migration uses for firstKeptEntryIndex.
func v1ID(ordinal int) string { return string(appendV1ID(nil, ordinal)) }

func appendV1ID(b []byte, ordinal int) []byte { return fmt.Appendf(b, "%08x", ordinal) }

func (r *Reader) intern(s string) int32 {
	if i, ok := r.strIdx[s]; ok {
		return i
	}
	i := int32(len(r.strs))
	r.strs = append(r.strs, s)
	r.strIdx[s] = i
	return i
}

func (r *Reader) model(provider, id string) int32 {
	m := modelRef{provider, id}
	if i, ok := r.modelIdx[m]; ok {
		return i
	}
	i := int32(len(r.models))
	r.models = append(r.models, m)
	r.modelIdx[m] = i
	return i
}

// entry adds one entry to the tree and the running totals.
func (r *Reader) entry(l *line, ordinal int) error {
	// place in the tree
	parent := int32(-1)
	if r.header.Version < 2 {
		parent = r.leaf // Pi's migration chains v1 entries in file order
	} else {
		if l.hasParent {
			p, ok := r.parentOf(l.parentID.bytes())
			switch {
			case ok:
				parent = p
			case r.partial:
				return errBranchUnknown
			}
		}
	}
	n := node{parent: -1, model: -1, modelChange: -1, thinking: -1, calls: -1}
	if parent >= 0 {
		n = r.nodes[parent]
		n.parent = parent
	}
	r.entries++

	switch l.typ {
	case "message":
		if l.hasMsg {
			r.messageEntry(l, &n)
		}
	case "model_change":
		model := l.modelID
		if model == "" {
			model = l.modelLegacy
		}
		n.model = r.model(l.provider, model)
		n.modelChange = n.model
	case "thinking_level_change":
		n.thinking = r.intern(l.thinkingLevel)
	case "compaction":
		n.compacted, n.hasValid = true, false
		r.addUsage(&l.usage)
	case "branch_summary":
		if l.summaryLen > 0 {
			n.trailing += estimate(l.summaryLen)
		}
		r.addUsage(&l.usage)
	case "custom_message":
		n.trailing += estimate(l.content.chars("custom"))
	case "session_info":
		if l.hasName && l.name != "" {
			r.name = trimJS(l.name)
		}
	case "usage":
		r.newer1x = true
		r.addUsage(&l.usage)
	case "context_edit":
		r.newer1x = true
	}

	idx := int32(len(r.nodes))
	r.nodes = append(r.nodes, n)
	r.leaf, r.leafMoved = idx, true
	if r.header.Version < 2 || !l.hasID {
		r.leafText = appendV1ID(r.leafText[:0], ordinal)
	} else {
		r.leafText = append(r.leafText[:0], l.id.bytes()...)
	}
	if r.header.Version >= 2 { // v1 parents are implicit: no index
		r.ids.add(r.leafText, idx)
	}
	return nil
}

// parentOf is the node of the entry with this id: most often the leaf (Pi
// appends each entry to the one before it), else the index's.
func (r *Reader) parentOf(id []byte) (int32, bool) {
	if r.leaf >= 0 && bytes.Equal(id, r.leafText) {
		return r.leaf, true // the newest node with that id, as the index has it
	}
	return r.ids.get(id)
}

// idIndex maps entry ids to nodes (the newest node for an id Pi wrote
// twice). Pi's ids are eight hex digits: an id of up to eight bytes and no
// NUL is keyed by its bytes in a uint64 (cheap to hash, no string kept), a
// longer one by its text. A file whose entries each hang from the one
// before never needs the short ids' map (parentOf): until a lookup does,
// they wait in keys, a uint64 per node.
type idIndex struct {
	keys  []uint64 // node i's short key, or longKey; until the map is built
	short map[uint64]int32
	long  map[string]int32
}

// longKey stands in keys for a long id: no short id makes it, as a short
// key's zero bytes follow all its others.
const longKey = 1 << 8

// shortID is the uint64 of an id of up to eight bytes, zero-padded: one
// key for one id, as no id byte is zero.
func shortID(id []byte) (uint64, bool) {
	if len(id) > 8 || bytes.IndexByte(id, 0) >= 0 {
		return 0, false
	}
	var k [8]byte
	copy(k[:], id)
	return binary.LittleEndian.Uint64(k[:]), true
}

func (x *idIndex) get(id []byte) (int32, bool) {
	k, short := shortID(id)
	if !short {
		i, found := x.long[string(id)]
		return i, found
	}
	if x.short == nil {
		x.short = make(map[uint64]int32, len(x.keys))
		for i, k := range x.keys {
			if k != longKey {
				x.short[k] = int32(i)
			}
		}
		x.keys = nil
	}
	i, found := x.short[k]
	return i, found
}

// add indexes node i, the next node, under id.
func (x *idIndex) add(id []byte, i int32) {
	k, short := shortID(id)
	if !short {
		x.long[string(id)] = i
		k = longKey
	}
	switch {
	case x.short == nil:
		x.keys = append(x.keys, k)
	case short:
		x.short[k] = i
	}
}

func (r *Reader) messageEntry(l *line, n *node) {
	m := &l.message
	ts := entryTime(l.timestamp, m)
	switch m.role {
	case "assistant":
		r.addUsage(&m.usage)
		if m.provider != "" || m.model != "" {
			n.model = r.model(m.provider, m.model)
		}
		if m.usage.present && m.stopReason != "aborted" && m.stopReason != "error" {
			n.hasValid, n.validTokens, n.trailing = true, m.usage.contextTokens(), 0
		} else {
			n.trailing += estimate(m.content.chars("assistant"))
		}
		for _, tc := range m.content.toolCalls {
			r.addCall(n, &tc, ts)
		}
		return
	case "toolResult":
		r.addUsage(&m.usage)
		r.result(m, ts)
	case "system":
		r.newer1x = true
	}
	if m.role == "bashExecution" {
		n.trailing += estimate(m.commandLen + m.outputLen)
	} else {
		n.trailing += estimate(m.content.chars(m.role))
	}
}

func (r *Reader) addUsage(u *usageVals) {
	if u.present {
		r.totals.add(u)
	}
}

func (r *Reader) addCall(n *node, tc *toolCall, at int64) {
	name := toolName(tc.name)
	c := call{prev: n.calls, tool: r.intern(name), action: actionOf(name, tc), outcome: outcomePending, at: at, id: tc.id}
	idx := int32(len(r.calls))
	r.calls = append(r.calls, c)
	n.calls = idx
	if tc.id != "" {
		p := pendingCall{call: idx, tool: name}
		if tc.path != "" {
			switch path := ResolvePath(r.header.CWD, r.Home, tc.path); name {
			case "read":
				p.read = pathKey(path)
			case "write", "edit":
				if status.PlacedPath(path) { // not relative to an unknown cwd: the status file takes placed paths only
					p.path = path
				}
			}
		}
		r.pending[tc.id] = p
	}
}

// result joins a toolResult to its call.
func (r *Reader) result(m *message, at int64) {
	p, ok := r.pending[m.toolCallID]
	if !ok {
		return
	}
	delete(r.pending, m.toolCallID)
	if p.call >= 0 && int(p.call) < len(r.calls) {
		r.calls[p.call].outcome = outcomeOK
		if m.isError {
			r.calls[p.call].outcome = outcomeError
		}
	}
	if m.isError {
		return
	}
	if p.read != 0 {
		r.touched[p.read] = true
	}
	if path := p.path; path != "" {
		key := pathKey(path)
		o := r.outputs[path]
		if o == nil {
			// from the transcript alone: a write to a path the session had
			// not touched before created it
			o = &output{created: p.tool == "write" && !r.touched[key]}
			r.outputs[path] = o
		}
		r.touched[key] = true
		if at > o.at {
			o.at = at
		}
		r.outputsChanged = true
	}
}

// entryTime is the entry's ISO timestamp, else the message's unix ms.
func entryTime(iso string, m *message) int64 {
	if iso != "" {
		if t, err := time.Parse(time.RFC3339Nano, iso); err == nil {
			return t.UnixMilli()
		}
	}
	if m != nil && m.hasTimestamp {
		return int64(m.timestamp)
	}
	return 0
}

// trimJS trims like JavaScript's String.prototype.trim for common input.
func trimJS(s string) string {
	return string(bytes.TrimSpace([]byte(s)))
}

// toolName keeps a tool's name only when it looks like one: a model may
// call a tool that does not exist with any text as its name.
func toolName(s string) string {
	if s == "" || len(s) > 64 {
		return "unknown"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':') {
			return "unknown"
		}
	}
	return s
}
