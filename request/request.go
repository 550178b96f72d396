// Package request carries a reader's wish back into a live session: turn a
// tool or a skill on or off for this session, or reload it when idle. A
// request approves nothing: it changes what the model is offered, never a
// permission decision.
//
// # The file
//
// <state>/requests/<safe id>.json, the same name as the session's status
// file, schema 1:
//
//	{"schema": 1, "id": "lx3k9a-4f2a9c1b", "tools": {"bash": false}, "skills": {"pdf": false}, "reload": true, "covers": ["lx3k8z-0a1b2c3d"]}
//
// Unknown fields are ignored. covers lists the ids of earlier requests that
// were merged into this one while it waited (see [Send]); the session copies
// it into lastRequest.covers so that their waiters recognise the answer.
//
// # Reader side
//
// [Send] writes a request in one step (temp file, rename), 0600 in a 0700
// folder. When a request for the session is still waiting (not taken), Send
// merges into it under a lock instead of replacing it: the merged request
// takes the new request's id, lists the waiting one's id (and its covers) in
// covers, and a later switch of the same name wins. [Answered] tells a waiter
// whether a status file's lastRequest answers its id; [Await] waits for it.
//
// # Session side
//
// [Take] claims the file by renaming it to a private name under the same
// lock, so it is taken exactly once even with two takers, then reads it. A
// bad file (not JSON, not an object, schema not 1, no id, over [MaxSize], a
// symlink, not a regular file, another user's) is removed and comes back as a
// [*BadError], with an ok:false answer when its id could be read.
//
// [Resolve] decides what a good request does, given what the session has
// ([Available]) and its current switches: the next switches (keep them in
// the session and in the status file's switches, so a reload or a resume
// keeps them), the tools to set active, the skills to leave out, whether to
// reload, and the answer for lastRequest. [Handle] is Take and Resolve in
// one step, for a session that polls. [Apply] re-applies kept switches, for
// a session that starts, reloads or resumes. For a hook that keeps no state
// of its own, [TakeAnswering] and [Decide] also write the answer (and the
// switches) into the session's status file, under its lock. A host that
// decides calls from switches it keeps outside the request folder ([Kept],
// the hook kit) takes with [TakeKept]: the switches saved before the
// request leaves the folder. The host (the
// Pi bridge, a hook through `jig request handle`) only carries the outcome
// out; no deciding happens outside this package.
package request

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"jig/status"
)

// Schema is the request format this package writes and reads.
const Schema = 1

// Limits of a request file, so a reader cannot make a session chew on
// anything large.
const (
	MaxSize = 64 << 10 // bytes in one request file
	MaxID   = 128      // bytes in an id
	MaxName = 128      // bytes in a tool or skill name
)

// Request is one request file.
type Request struct {
	Schema int             `json:"schema"`
	ID     string          `json:"id"`
	Tools  map[string]bool `json:"tools"`
	Skills map[string]bool `json:"skills"`
	Reload bool            `json:"reload"`
	Covers []string        `json:"covers,omitempty"`
}

// New is a request with a fresh id and empty switches.
func New(now time.Time) *Request {
	return &Request{Schema: Schema, ID: NewID(now), Tools: map[string]bool{}, Skills: map[string]bool{}}
}

// NewID is a short unique id: the time in milliseconds, base 36, and 32
// random bits. Only letters, digits and '-'.
func NewID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:]) // never fails: it crashes the program rather than return an error
	return strconv.FormatInt(now.UnixMilli(), 36) + "-" + hex.EncodeToString(b[:])
}

// Encode is the file's bytes: one line of JSON and a newline.
func Encode(r *Request) ([]byte, error) {
	c := *r
	if c.Tools == nil {
		c.Tools = map[string]bool{}
	}
	if c.Skills == nil {
		c.Skills = map[string]bool{}
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// BadError says why a request file was refused. ID is the request's id when
// it could be read, so the session can still answer.
type BadError struct {
	ID     string
	Reason string
}

// Error is one line, for a status bar or a log, whatever the reason holds.
func (e *BadError) Error() string {
	return "bad request: " + strings.Join(strings.Fields(e.Reason), " ")
}

// Is makes a bad request status.ErrBadInput.
func (e *BadError) Is(target error) bool { return target == status.ErrBadInput }

// Parse reads a request file's bytes. It fails with a *BadError.
func Parse(data []byte) (*Request, error) {
	if len(data) > MaxSize {
		return nil, &BadError{Reason: fmt.Sprintf("larger than %d bytes", MaxSize)}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &BadError{Reason: "empty"}
	}
	if !json.Valid(trimmed) {
		return nil, &BadError{Reason: "not JSON"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &fields); err != nil || fields == nil { // nil: the literal null
		return nil, &BadError{Reason: "not a JSON object"}
	}
	r := &Request{}
	bad := func(format string, args ...any) (*Request, error) {
		return nil, &BadError{ID: r.ID, Reason: fmt.Sprintf(format, args...)}
	}
	raw, ok := fields["id"]
	if !ok || isNull(raw) {
		return bad("no id")
	}
	if err := json.Unmarshal(raw, &r.ID); err != nil {
		return bad("id is not a string")
	}
	if err := checkID(r.ID); err != nil {
		id := r.ID
		r.ID = ""
		if len(id) > 40 {
			id = id[:40] + "…"
		}
		return bad("id %q: %v", id, err)
	}
	raw, ok = fields["schema"]
	if !ok || isNull(raw) {
		return bad("no schema")
	}
	var schema float64
	if err := json.Unmarshal(raw, &schema); err != nil {
		return bad("schema is not a number")
	}
	if schema != Schema {
		return bad("schema %s: this jig reads schema %d", strconv.FormatFloat(schema, 'g', 6, 64), Schema)
	}
	r.Schema = Schema
	var err error
	if r.Tools, err = switchMap(fields["tools"]); err != nil {
		return bad("tools: %v", err)
	}
	if r.Skills, err = switchMap(fields["skills"]); err != nil {
		return bad("skills: %v", err)
	}
	if raw, ok := fields["reload"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &r.Reload); err != nil {
			return bad("reload is not true or false")
		}
	}
	if raw, ok := fields["covers"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &r.Covers); err != nil {
			return bad("covers is not a list of ids")
		}
		for _, id := range r.Covers {
			if checkID(id) != nil {
				return bad("covers holds a bad id")
			}
		}
		if len(r.Covers) == 0 {
			r.Covers = nil
		}
	}
	return r, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// switchMap reads {"name": true|false, ...}; absent or null is empty.
func switchMap(raw json.RawMessage) (map[string]bool, error) {
	m := map[string]bool{}
	if raw == nil || isNull(raw) {
		return m, nil
	}
	var vals map[string]json.RawMessage
	if err := json.Unmarshal(raw, &vals); err != nil || vals == nil {
		return nil, fmt.Errorf("want an object of names to true or false")
	}
	for _, name := range sortedKeys(vals) {
		if err := CheckName(name); err != nil {
			return nil, err
		}
		var on bool
		if err := json.Unmarshal(vals[name], &on); err != nil {
			return nil, fmt.Errorf("%s is not true or false", name)
		}
		m[name] = on
	}
	return m, nil
}

// CheckName refuses a tool or skill name that is empty, too long, or holds
// control characters or spaces: such a name names nothing a session has, and
// it would end up in the status file and the answer.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("an empty name")
	case len(name) > MaxName:
		return fmt.Errorf("a name longer than %d bytes", MaxName)
	case !printable(name):
		return fmt.Errorf("name %q holds spaces or control characters", name)
	}
	return nil
}

func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("empty")
	case len(id) > MaxID:
		return fmt.Errorf("longer than %d bytes", MaxID)
	case !printable(id):
		return fmt.Errorf("holds spaces or control characters")
	}
	return nil
}

// printable: valid UTF-8 without spaces or control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// Merge lays next over waiting: next's id, waiting's id and covers in
// covers, switches merged name by name (next wins), reload if either asks.
func Merge(waiting, next *Request) *Request {
	m := &Request{Schema: Schema, ID: next.ID, Tools: map[string]bool{}, Skills: map[string]bool{}}
	for _, r := range []*Request{waiting, next} {
		for k, v := range r.Tools {
			m.Tools[k] = v
		}
		for k, v := range r.Skills {
			m.Skills[k] = v
		}
		m.Reload = m.Reload || r.Reload
	}
	m.Covers = append(append(append([]string{}, waiting.Covers...), waiting.ID), next.Covers...)
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
