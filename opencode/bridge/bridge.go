// Package bridge is the Go side of jig's OpenCode plugin (opencode/jig.js):
// one long-lived process per opencode process (`jig opencode bridge`), fed
// JSON lines on stdin, that keeps one status file per OpenCode session the
// process hosts, takes the sessions' requests and tells the plugin which
// permission rules to append.
//
// OpenCode keeps no transcript jig can read without a SQLite driver: the
// events are the source. What a session did before this process (a resumed
// session) is read back once through `opencode export` (resume.go). When
// stdin ends, opencode is gone: every file goes and the bridge exits.
package bridge

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"time"

	"jig/opencode"
	"jig/request"
	"jig/status"
	floor "jig/transcript"
	"jig/writer"
)

// Message is one line from the plugin; Type says which fields count.
type Message struct {
	Type string `json:"type"`

	// hello: the bridge's opencode process, and its binary (for export).
	PID      int    `json:"pid,omitempty"`
	OpenCode string `json:"opencode,omitempty"`

	Session string `json:"session,omitempty"` // every per-session line
	// session: created (a new session, nothing to read back), its folder,
	// OpenCode's variant (effort).
	Created bool   `json:"created,omitempty"`
	CWD     string `json:"cwd,omitempty"`
	Variant string `json:"variant,omitempty"`

	State string `json:"state,omitempty"` // state: busy | retry | idle

	// message: an assistant message's tokens and cost, as OpenCode counted them.
	ID     string      `json:"id,omitempty"`
	Tokens *Tokens     `json:"tokens,omitempty"`
	Cost   *float64    `json:"cost,omitempty"`
	Model  *ModelEvent `json:"model,omitempty"` // message and model
	Agent  string      `json:"agent,omitempty"` // model: the agent of the call

	Name string `json:"name,omitempty"` // tool: a tool OpenCode defines

	// call: a tool call starts or ends (ID is its call id). Path is the file
	// a write or edit touches, absolute; Existed whether it was there before.
	Phase   string `json:"phase,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Path    string `json:"path,omitempty"`
	Existed *bool  `json:"existed,omitempty"`
	Error   bool   `json:"error,omitempty"`

	// ask: a permission or question waits (ID is its request id, Call the
	// call it is for); replied: it was answered.
	Kind string `json:"kind,omitempty"`
	Call string `json:"call,omitempty"`

	// applied: the plugin appended a request's rules (or could not: Reason).
	OK     bool   `json:"ok,omitempty"`
	Reason string `json:"reason,omitempty"`

	Sessions []string `json:"sessions,omitempty"` // end: these sessions are over
}

// Tokens are an assistant message's tokens as OpenCode counts them: input
// without the cached part, output without reasoning.
type Tokens struct {
	Total     int64 `json:"total"`
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

// Sum is what the message holds in the context: OpenCode's total, else its parts.
func (t Tokens) Sum() int64 {
	if t.Total > 0 {
		return t.Total
	}
	return t.Input + t.Output + t.Reasoning + t.Cache.Read + t.Cache.Write
}

// ModelEvent is the model of a call or message; Context is its window.
type ModelEvent struct {
	ID         string `json:"id"`
	ProviderID string `json:"providerID"`
	Name       string `json:"name,omitempty"`
	Context    int64  `json:"context,omitempty"`
}

// SessionReply names a session's switches file to the plugin, which reads
// it before every call.
type SessionReply struct {
	Type     string `json:"type"` // session
	Session  string `json:"session"`
	Switches string `json:"switches"`
}

// Ready answers hello: the folder of the sessions' switches files (a
// plain session id's file is <folder>/<id>.json).
type Ready struct {
	Type     string `json:"type"` // ready
	Switches string `json:"switches"`
}

// Apply asks the plugin to append permission rules: deny these
// permissions, give these back as the session's agent has them.
type Apply struct {
	Type    string   `json:"type"` // apply
	ID      string   `json:"id"`
	Session string   `json:"session"`
	Deny    []string `json:"deny,omitempty"`
	Restore []string `json:"restore,omitempty"`
}

// Bridge holds every session of one opencode process.
type Bridge struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string
	// Export reads a session back; nil: opencode export, run as hello said.
	Export func(id string) (*opencode.Exported, error)

	out      io.Writer
	w        writer.Writer
	pid      int
	bin      string              // the opencode binary, from hello
	tools    []string            // the tools OpenCode defines, in order
	sessions map[string]*session // by id
	resumed  chan resumedSession // exports read back, for the loop
}

// New makes a bridge writing into dir.
func New(dir *status.Dir, now func() time.Time, getenv func(string) string, host string) *Bridge {
	return &Bridge{Dir: dir, Now: now, Getenv: getenv, Host: host, sessions: map[string]*session{},
		resumed: make(chan resumedSession, 8)}
}

func (b *Bridge) kept() request.Kept { return request.Kept{Dir: b.Dir, Folder: opencode.SwitchesDir} }

// Run reads the plugin's lines until the end of in, looking for requests
// every poll. At the end of in, opencode is gone: every file goes.
func (b *Bridge) Run(in io.Reader, out io.Writer, poll time.Duration) error {
	b.out = out
	type line struct {
		data []byte
		err  error
	}
	lines := make(chan line)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			data, err := floor.ReadLine(r, status.MaxFileSize)
			if err != nil && !errors.Is(err, floor.ErrLineTooLong) {
				close(lines)
				return
			}
			lines <- line{data, err}
		}
	}()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				b.endAll()
				return nil
			}
			if l.err == nil {
				b.Handle(l.data) // a bad line changes nothing; the next may
			}
		case r := <-b.resumed:
			b.takeResumed(r)
		case <-tick.C:
			b.CheckRequests()
		}
	}
}

// Handle takes one line. A line that would make a file no reader takes is
// refused whole: its session is left as it was.
func (b *Bridge) Handle(data []byte) error {
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("bridge: a line that is not JSON: %v", err)
	}
	switch m.Type {
	case "hello":
		if m.PID <= 0 {
			return fmt.Errorf("bridge: hello: pid %d: want a process id", m.PID)
		}
		b.pid, b.bin = m.PID, m.OpenCode
		b.send(Ready{Type: "ready", Switches: b.Dir.Path(opencode.SwitchesDir)})
		b.Dir.GC(status.Liveness{Host: b.Host}, b.Now()) // a killed opencode's files, and its bridge's
		b.kept().Prune(b.Now())
		return nil
	case "tool":
		if request.CheckName(m.Name) == nil && !slices.Contains(b.tools, m.Name) {
			b.tools = append(b.tools, m.Name)
		}
		return nil
	case "end":
		for _, id := range m.Sessions {
			b.end(id)
		}
		return nil
	}
	if m.Session == "" || b.pid == 0 || !sessionLines[m.Type] {
		return nil // a newer plugin's line, or one before hello: nothing to write
	}
	ss, err := b.session(m)
	if err != nil {
		return err
	}
	before := ss.clone()
	if !ss.take(m, b.Now().UTC()) {
		return nil
	}
	if m.Type == "applied" {
		b.applied(ss, m)
	}
	if err := b.write(ss); err != nil {
		var bad *writer.Refused
		if errors.As(err, &bad) {
			*ss = before
		}
		return err
	}
	return nil
}

// sessionLines are the lines about one session (session.take).
var sessionLines = map[string]bool{"session": true, "state": true, "model": true, "message": true, "call": true,
	"ask": true, "replied": true, "applied": true}

// session is the line's session, made at its first line: it gets its
// switches back (a resumed session's, kept), and the plugin is told where
// they are. A session not created in this process is read back.
func (b *Bridge) session(m Message) (*session, error) {
	if ss, ok := b.sessions[m.Session]; ok {
		return ss, nil
	}
	if len(m.Session) > status.MaxID {
		return nil, fmt.Errorf("bridge: a session id of %d bytes", len(m.Session))
	}
	ss := newSession(m.Session, b.Now().UTC())
	if sw, err := b.kept().Load(m.Session); err == nil {
		ss.switches = sw
	}
	b.sessions[m.Session] = ss
	b.send(SessionReply{Type: "session", Session: m.Session, Switches: b.kept().File(m.Session)})
	if !(m.Type == "session" && m.Created) {
		b.readBack(m.Session)
	}
	return ss, nil
}

// end removes a session's file; its kept switches stay for a resume.
func (b *Bridge) end(id string) {
	if _, ok := b.sessions[id]; !ok {
		return
	}
	delete(b.sessions, id)
	b.writer().End(id)
}

func (b *Bridge) endAll() {
	for _, id := range slices.Sorted(maps.Keys(b.sessions)) {
		b.end(id)
	}
}

func (b *Bridge) writer() *writer.Writer {
	b.w.Dir, b.w.Now, b.w.Getenv, b.w.Host = b.Dir, b.Now, b.Getenv, b.Host
	return &b.w
}

// write lays the session over its file, under its lock.
func (b *Bridge) write(ss *session) error {
	ss.tools = status.Tools{Total: len(b.tools)}
	for _, t := range b.tools {
		if !b.denied(ss.switches, permission(t)) {
			ss.tools.Active++ // offered: its permission is not jig's deny
		}
	}
	u := writer.Update{Session: ss.id, PID: b.pid, Agent: opencode.Agent.ID, AgentDir: opencode.ConfigDir(b.Getenv),
		CWD: ss.cwd, Outputs: ss.outputList(), Edit: ss.edit, Base: func(file *status.Status) *status.Status {
			if file == nil || file.PID != b.pid {
				return ss.last
			}
			return file
		}}
	s, err := b.writer().Write(u)
	if err == nil {
		ss.last = s
	}
	return err
}

func (b *Bridge) send(v any) {
	if b.out == nil {
		return
	}
	data, _ := json.Marshal(v)
	b.out.Write(append(data, '\n'))
}

// available is every tool a request may switch: those OpenCode defines,
// and those switched before.
func (b *Bridge) available(ss *session) request.Available {
	tools := slices.Clone(b.tools)
	for name := range ss.switches.Tools {
		if !slices.Contains(tools, name) {
			tools = append(tools, name)
		}
	}
	sort.Strings(tools)
	return request.Available{Tools: tools, Active: tools}
}
