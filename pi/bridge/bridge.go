// Package bridge is the Go side of jig's Pi extension: one long-lived
// process per Pi session (`jig pi bridge`), fed JSON lines on stdin by the
// extension, that keeps the session's status file up to date, takes the
// session's requests and tells the extension what to apply.
//
// The extension says only what Pi knows live (see Message); everything the
// transcript can say comes from the transcript. The file is written only
// when its content changed. When stdin ends without an "end" message, Pi
// died: the bridge removes the file and exits.
package bridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"jig/pi"
	"jig/pi/transcript"
	"jig/render"
	"jig/request"
	"jig/status"
	base "jig/transcript"
	floor "jig/transcript"
	"jig/writer"
)

// Message is one line from the extension. Type says which fields count.
type Message struct {
	Type string `json:"type"`

	// hello: the session starts (or restarts after a reload or resume).
	Session     string `json:"session,omitempty"`
	SessionFile string `json:"sessionFile,omitempty"`
	PID         int    `json:"pid,omitempty"`
	// Switches are the ones kept in the session (its last
	// jig-session.switches entry), to re-apply after a resume.
	Switches *status.Switches `json:"switches,omitempty"`

	// live: status fields Pi knows live, laid over what the bridge has.
	Live json.RawMessage `json:"live,omitempty"`
	// Ready asks for a "ready" reply: what to apply before the first prompt.
	Ready bool `json:"ready,omitempty"`

	// inventory: the tools and skills Pi has, for requests and the
	// context detail.
	Tools  []Tool  `json:"tools,omitempty"`
	Skills []Skill `json:"skills,omitempty"`

	// call: a tool call starts (phase "start") or ends ("end").
	Call *CallEvent `json:"call,omitempty"`

	// decision: jig-core's decision on a call (from the jig:decision event).
	Decision *DecisionEvent `json:"decision,omitempty"`

	// run (with live): a run starts (a new prompt) or ends, Error when Pi
	// gave up on an error after its retries.
	Run *RunEvent `json:"run,omitempty"`

	// context: what fills the context, in characters, part by part; the
	// fields given replace those seen before.
	Context json.RawMessage `json:"context,omitempty"`

	// applied: the extension applied a request the bridge sent.
	Applied *Applied `json:"applied,omitempty"`

	// ticket: another extension named the active ticket (jig:ticket).
	Ticket *TicketEvent `json:"ticket,omitempty"`

	// end: the session is over; Keep leaves the file (a reload follows).
	Keep bool `json:"keep,omitempty"`
}

// Tool is one tool Pi has registered.
type Tool struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // builtin, or the extension or package that registered it
	Active bool   `json:"active"`
	Hidden bool   `json:"hidden,omitempty"` // 1.x exposure "hidden": activating it has no effect
	Chars  int64  `json:"chars"`            // size of its declaration to the model
}

// Skill is one skill Pi offers in the system prompt.
type Skill struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // the package, or where Pi found it (user, project, cli)
	Chars  int64  `json:"chars"`
}

// CallEvent is a tool call's start or end. Path is the file a write or
// edit touches, as the model gave it; no other argument is ever sent. A
// start with a path is answered with a Checked once the bridge has looked
// whether the file is there: the extension holds the tool until then.
type CallEvent struct {
	Phase string `json:"phase"` // start | end
	ID    string `json:"id"`
	Tool  string `json:"tool"`
	Path  string `json:"path,omitempty"`
	Error bool   `json:"error,omitempty"`
}

// Checked answers a call's start with a path: the bridge knows whether the
// file existed before the tool ran (created or changed).
type Checked struct {
	Type string `json:"type"` // checked
	ID   string `json:"id"`
}

// DecisionEvent is jig-core's word on one call.
type DecisionEvent struct {
	ID       string `json:"id"`
	Tool     string `json:"tool,omitempty"` // the call's tool, when the extension knew it first
	Action   string `json:"action,omitempty"`
	Decision string `json:"decision"`
	Answer   string `json:"answer,omitempty"`
}

// RunEvent is a run's start or end.
type RunEvent struct {
	Phase string `json:"phase"` // start | end
	Error bool   `json:"error,omitempty"`
}

// Applied is the extension's report after applying an Apply: the tools
// active now (those asked for and missing, Pi refused).
type Applied struct {
	ID     string   `json:"id"`
	Active []string `json:"active"`
	// ReloadUnsupported: this Pi (0.x) cannot run a reload from an event.
	ReloadUnsupported bool `json:"reloadUnsupported,omitempty"`
}

// Reply is an "apply" (a request) or a "ready" (the kept switches, after a
// session starts) line to the extension: make these tools active (null:
// leave them; []: none), leave these skills out, keep these switches
// (appendEntry; apply only), reload when idle.
type Reply struct {
	Type      string          `json:"type"`
	ID        string          `json:"id,omitempty"`
	Active    []string        `json:"active"`
	SkillsOff []string        `json:"skillsOff,omitempty"`
	Switches  status.Switches `json:"switches"`
	Reload    bool            `json:"reload,omitempty"`
}

// Where answers "where": the status file and the terminal it names.
type Where struct {
	Type     string `json:"type"` // where
	Path     string `json:"path"`
	Terminal string `json:"terminal"`
}

// Notice is a line for Pi's UI.
type Notice struct {
	Type    string `json:"type"` // notice
	Message string `json:"message"`
}

// Bridge holds one session's state between events.
type Bridge struct {
	Dir    *status.Dir
	Now    func() time.Time
	Getenv func(string) string
	Host   string

	mu           sync.Mutex
	out          io.Writer
	w            writer.Writer                       // see writer
	baseFn       func(*status.Status) *status.Status // base and edit, bound once
	editFn       func(s, prev *status.Status) error
	lastNotice   string
	sessionState // what the session in progress has said
}

// sessionState is all the bridge knows of one session. A hello with
// another id replaces it whole; the lock and the output stay.
type sessionState struct {
	session      string
	pid          int
	file         string
	startedAt    time.Time
	live         []byte // the live fields, as one JSON object
	tools        []Tool
	skills       []Skill
	reader       *transcript.Reader  // the session's transcript, read incrementally
	derived      *transcript.Derived // what reader said at the status being built
	repos        *base.RepoFinder
	last         *status.Status // the last status built, for what only live knew
	calls        []liveCall     // this process's calls, oldest first
	callIndex    map[string]int
	outputs      map[string]status.Output // path → created or changed, as the file was at tool_call
	liveCWD      string                   // the cwd in live
	sizes        []byte                   // the last ContextSizes, as one JSON object
	contextSizes *ContextSizes            // the same, read
	switches     status.Switches
	answer       *status.Answer
	pending      *request.Outcome // sent to the extension, not yet applied
	pendingSince time.Time
	ticket       ticketState // the active ticket (ticket.go)
	failedAt     time.Time   // the last run ended on an error (zero: it did not)
}

func newSessionState() sessionState {
	return sessionState{live: []byte("{}"), callIndex: map[string]int{}, outputs: map[string]status.Output{},
		repos: base.NewRepoFinder()}
}

// clone copies what handling a line changes in place (the other fields
// are only ever replaced), so a refused line can be undone.
func (st sessionState) clone() sessionState {
	st.calls = slices.Clone(st.calls)
	st.callIndex = maps.Clone(st.callIndex)
	st.outputs = maps.Clone(st.outputs)
	return st
}

// New makes a bridge writing into dir.
func New(dir *status.Dir, now func() time.Time, getenv func(string) string, host string) *Bridge {
	b := &Bridge{Dir: dir, Now: now, Getenv: getenv, Host: host, sessionState: newSessionState()}
	b.baseFn, b.editFn = b.base, b.edit
	return b
}

// liveCall is a tool call as the extension saw it: what the transcript
// cannot say (the file's state at tool_call, jig-core's decision).
type liveCall struct {
	tool, path               string
	existed                  bool
	action, decision, answer string
	asked                    time.Time // jig-core asks the person, unanswered, the call not ended (zero: no)
	ended                    bool
}

// Run reads the extension's lines until "end" or the end of in, looking
// for requests (and transcript lines written after the last event) every
// poll. At the end of in without "end", Pi is gone: the
// file is removed.
func (b *Bridge) Run(in io.Reader, out io.Writer, poll time.Duration) error {
	b.out = out
	lines := make(chan inLine)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			data, err := floor.ReadLine(r, status.MaxFileSize)
			if err != nil && !errors.Is(err, floor.ErrLineTooLong) {
				if err == io.EOF {
					err = nil
				}
				readErr <- err
				close(lines)
				return
			}
			lines <- inLine{data, err}
		}
	}()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				b.gone()
				return <-readErr
			}
			if line.err != nil {
				b.notice(line.err.Error())
				continue
			}
			done, err := b.Handle(line.data)
			if err != nil {
				b.notice(err.Error())
			}
			if done {
				return nil
			}
		case <-tick.C:
			if err := b.CheckRequests(); err != nil {
				b.notice(err.Error())
			}
			if err := b.Refresh(); err != nil {
				b.notice(err.Error())
			}
			if err := b.RefreshTicket(); err != nil {
				b.notice(err.Error())
			}
		}
	}
}

// inLine is a line from the extension, or why it was not taken.
type inLine struct {
	data []byte
	err  error
}

// Handle takes one line from the extension and writes the file if its
// content changed. It reports whether the session ended. A line that would
// not make a valid file is refused whole: the session is left as it was,
// so later lines still apply (the reply it asks for, ready or checked,
// still goes out: the extension waits for it).
func (b *Bridge) Handle(line []byte) (bool, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return false, fmt.Errorf("bridge: a line that is not JSON: %v", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	before := b.sessionState.clone()
	switch m.Type {
	case "hello":
		if err := b.hello(m); err != nil {
			return false, err
		}
	case "live":
		merged, err := status.Merge(b.live, m.Live)
		if err != nil {
			return false, fmt.Errorf("bridge: live: %v", err)
		}
		b.live = merged
		if m.Run != nil {
			b.run(*m.Run)
		}
		if bytes.Contains(m.Live, []byte(`"cwd"`)) {
			var said struct {
				CWD string `json:"cwd"`
			}
			json.Unmarshal(merged, &said) // a cwd of another type is refused with the line, at write
			b.liveCWD = said.CWD
		}
		if m.Ready {
			b.ready()
		}
	case "where":
		r := Where{Type: "where", Path: b.Dir.SessionPath(b.session)}
		if s, err := b.Status(); err == nil && s.Terminal != nil {
			r.Terminal = *s.Terminal
		}
		b.send(r)
		return false, nil
	case "inventory": // either list may come alone
		if m.Tools != nil {
			b.tools = m.Tools
		}
		if m.Skills != nil {
			b.skills = m.Skills
		}
	case "call":
		if m.Call != nil {
			b.call(*m.Call)
		}
	case "decision":
		if m.Decision != nil {
			b.decide(*m.Decision)
		}
	case "context":
		merged, err := status.Merge(b.sizes, m.Context)
		if err != nil {
			return false, fmt.Errorf("bridge: context: %v", err)
		}
		var sizes ContextSizes
		if err := json.Unmarshal(merged, &sizes); err != nil {
			return false, fmt.Errorf("bridge: context: %v", err)
		}
		b.sizes, b.contextSizes = merged, &sizes
	case "applied":
		if m.Applied != nil {
			b.applied(*m.Applied)
		}
	case "ticket":
		if m.Ticket != nil {
			b.takeTicket(*m.Ticket)
		}
	case "end":
		if b.session != "" && !m.Keep {
			return true, b.Dir.Remove(b.session)
		}
		if p := b.pending; p != nil && b.session != "" {
			// A reload came before Pi applied the request: the next bridge
			// cannot finish it, so it is answered now and no reader waits.
			b.pending = nil
			ans := p.Answer
			ans.OK, ans.At = false, b.Now().UTC()
			ans.Message += "; Pi reloaded before applying it: ask again"
			b.answer = &ans
			return true, b.write()
		}
		return true, nil
	default:
		return false, nil // a newer extension's message: ignored
	}
	// A line that would make a bad file is refused whole: the session goes
	// back to what it was. The file would otherwise stop changing at the
	// first bad field, each later write failing on it.
	err := b.write()
	if b.session == "" {
		err = b.checkBeforeHello()
	}
	// A status no reader could take (a field of the wrong type, Validate
	// failing): the line that led to it is refused, not the write retried.
	var bad *writer.Refused
	if errors.As(err, &bad) {
		b.sessionState = before
		return false, fmt.Errorf("bridge: %s: %v", m.Type, bad.Err)
	}
	return false, err
}

// checkBeforeHello checks the status the state so far would make, with a
// stand-in id and pid: before hello there is no file to write, and what is
// said must already hold when hello brings them.
func (b *Bridge) checkBeforeHello() error {
	u := b.update()
	u.Session, u.PID = "before-hello", 1
	return b.writer().Check(u, b.last)
}

// hello starts a session: a new id gets a new file (the old one goes), the
// same id after a reload keeps its file and its start time.
func (b *Bridge) hello(m Message) error {
	if m.Session == "" {
		return errors.New("bridge: hello without a session id")
	}
	if m.PID <= 0 {
		return fmt.Errorf("bridge: hello: pid %d: want a process id", m.PID)
	}
	if b.session != "" && b.session != m.Session {
		b.Dir.Remove(b.session)
		b.sessionState = newSessionState()
	}
	if b.reader == nil || b.file != m.SessionFile {
		b.reader = nil
		if m.SessionFile != "" {
			b.reader = transcript.NewReader(m.SessionFile)
			b.reader.Home = b.Getenv("HOME")
		}
	}
	b.session, b.pid, b.file = m.Session, m.PID, m.SessionFile
	b.startedAt = b.Now().UTC()
	if prev, err := b.Dir.Read(m.Session); err == nil && prev.PID == m.PID {
		// A reload: the same session goes on, with what only the live
		// agent knew (created or changed, decisions) kept from the file.
		b.startedAt = prev.StartedAt
		b.switches = prev.Switches
		b.answer = prev.LastRequest
		b.last = prev
	}
	if m.Switches != nil {
		b.switches = *m.Switches
	}
	if b.switches.Tools == nil {
		b.switches.Tools = map[string]bool{}
	}
	if b.switches.Skills == nil {
		b.switches.Skills = map[string]bool{}
	}
	b.removeCrashed()
	return nil
}

// removeCrashed removes the files of sessions on this host whose Pi no
// longer runs: a Pi killed hard with its bridge leaves its file behind, and
// maybe the temp file of a write it was in the middle of.
func (b *Bridge) removeCrashed() {
	b.Dir.GC(status.Liveness{Host: b.Host}, b.Now())
}

// Refresh rewrites the file when the transcript grew since the last event:
// Pi may write its last message after the event that ends a run.
func (b *Bridge) Refresh() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reader == nil || b.session == "" {
		return nil
	}
	before := b.reader.Offset()
	if err := b.reader.Update(); err != nil || b.reader.Offset() == before {
		return nil // no transcript yet, or nothing new
	}
	return b.write()
}

// gone is the end of stdin without "end": Pi died.
func (b *Bridge) gone() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session != "" {
		b.Dir.Remove(b.session)
	}
}

// callAt is the live call of a tool call id, added when first heard of:
// another extension's decision may come before our own tool_call handler.
func (b *Bridge) callAt(id string) *liveCall {
	i, ok := b.callIndex[id]
	if !ok {
		i = len(b.calls)
		b.callIndex[id] = i
		b.calls = append(b.calls, liveCall{})
	}
	return &b.calls[i]
}

func (b *Bridge) call(c CallEvent) {
	lc := b.callAt(c.ID)
	if c.Tool != "" {
		lc.tool = c.Tool
	}
	switch c.Phase {
	case "start":
		if c.Path != "" {
			lc.path = transcript.ResolvePath(b.liveCWD, b.Getenv("HOME"), c.Path) // Pi's reading, the transcript's key
			_, err := os.Stat(lc.path)                                            // a link to a file: the tool writes through it
			lc.existed = err == nil
			b.send(Checked{Type: "checked", ID: c.ID})
		}
	case "end":
		lc.ended, lc.asked = true, time.Time{}
		if p := lc.path; status.PlacedPath(p) && !c.Error { // not relative to an unknown cwd
			o := status.Output{Path: p, Action: status.Changed, At: b.Now().UTC()}
			if !lc.existed || b.outputs[p].Action == status.Created {
				o.Action = status.Created // created once stays created
			}
			b.outputs[p] = o
		}
	}
}

// label keeps a word from another extension only if it is a name
// (status.IsLabel): a path, a command line or a secret is dropped, so the
// "no values" rule does not rest on what jig-core sends.
func label(s string) string {
	if !status.IsLabel(s) {
		return ""
	}
	return s
}

func (b *Bridge) decide(d DecisionEvent) {
	lc := b.callAt(d.ID)
	lc.action, lc.decision, lc.answer = label(d.Action), label(d.Decision), label(d.Answer)
	if lc.tool == "" {
		lc.tool = d.Tool
	}
	switch {
	case lc.decision != "ask" || lc.answer != "" || lc.ended:
		lc.asked = time.Time{} // answered, or decided without asking
	case lc.asked.IsZero():
		lc.asked = b.Now().UTC()
	}
}

// run takes a run's start or end: either way no call of the run before
// waits any more (a new prompt, or Pi stopped); an end on an error waits
// for the person until the next run.
func (b *Bridge) run(r RunEvent) {
	for i := range b.calls {
		b.calls[i].asked = time.Time{}
	}
	b.failedAt = time.Time{}
	if r.Phase == "end" && r.Error {
		b.failedAt = b.Now().UTC()
	}
}

// attention is what the session waits for from the person: the call
// jig-core asked about last and nobody answered yet, else a run that
// ended on an error.
func (b *Bridge) attention() *status.Attention {
	var waiting *liveCall
	for i := range b.calls {
		if c := &b.calls[i]; !c.asked.IsZero() && (waiting == nil || !c.asked.Before(waiting.asked)) {
			waiting = c
		}
	}
	switch {
	case waiting != nil:
		a := &status.Attention{Kind: status.AttentionPermission, Since: waiting.asked}
		if status.IsToolName(waiting.tool) { // a name, or none: never a refused write
			a.Tool = waiting.tool
		}
		return a
	case !b.failedAt.IsZero():
		return &status.Attention{Kind: status.AttentionError, Since: b.failedAt}
	}
	return nil
}

// Status is the file's content now: the transcript (read up to its end),
// then what Pi said live over it (engine.Build), then what the bridge
// itself knows.
func (b *Bridge) Status() (*status.Status, error) {
	s, err := b.writer().Build(b.update(), b.last)
	if err != nil {
		return nil, fmt.Errorf("bridge: %v", err)
	}
	b.last = s
	return s, nil
}

// writer is the session's writer, in the bridge's environment (Pi's).
func (b *Bridge) writer() *writer.Writer {
	b.w.Dir, b.w.Now, b.w.Getenv, b.w.Host = b.Dir, b.Now, b.Getenv, b.Host // as they are now
	return &b.w
}

// update is what the bridge knows of the session now, for the writer: what
// Pi said live, the transcript read on in memory, the outputs and
// decisions only the live agent knows, the context detail, the switches
// and the last request's answer. It builds on the file as another writer of
// the session may have left it (a hook's `jig session write`), unless the
// file is an earlier process's: hello decided what of that carries over.
func (b *Bridge) update() writer.Update {
	agentDir, _ := pi.AgentDir(b.Getenv) // the bridge runs with Pi's environment
	u := writer.Update{Session: b.session, PID: b.pid, Agent: status.AgentPi, AgentDir: agentDir, SessionFile: b.file,
		Live: b.live, Outputs: b.liveOutputs(), Ticket: b.ticketWord(), Edit: b.editFn, Base: b.baseFn}
	b.derived = nil
	if b.reader != nil {
		u.Transcript = memoryTranscript{b}
	}
	return u
}

// base is what the bridge builds on: the file, unless it is an earlier
// process's.
func (b *Bridge) base(file *status.Status) *status.Status {
	if file == nil || file.PID != b.pid {
		return b.last
	}
	return file
}

// memoryTranscript is the session's transcript as the bridge reads it: one
// reader kept in memory, so it needs no saved cursor.
type memoryTranscript struct{ b *Bridge }

func (memoryTranscript) Resident() {}

func (t memoryTranscript) Derive([]byte) (*base.Derived, []byte, error) {
	// Pi writes the transcript lazily: until its first reply there is none.
	if err := t.b.reader.Update(); err != nil {
		return nil, nil, nil
	}
	t.b.derived = t.b.reader.Derive(t.b.repos.Repo)
	return &t.b.derived.Derived, nil, nil
}

// edit is the bridge's part of the status, under the lock.
func (b *Bridge) edit(s, prev *status.Status) error {
	if b.file == "" {
		s.SessionFile = nil // Pi keeps none (--no-session)
	}
	var ids []string
	if b.derived != nil {
		ids = b.derived.RecentIDs
	}
	b.addDecisions(s.Recent, ids)
	s.ContextDetail = nil
	if b.contextSizes != nil {
		s.ContextDetail = b.contextDetail(*b.contextSizes, s.Context.Window)
	}
	s.Switches = overlaySwitches(prev, b.switches)
	s.Attention = b.attention()
	s.LastRequest = b.answer
	s.StartedAt = b.startedAt
	return nil
}

// liveOutputs is the outputs whose action only the live agent knows (the
// file existed or not at tool_call).
func (b *Bridge) liveOutputs() []status.Output {
	if len(b.outputs) == 0 {
		return nil
	}
	outs := make([]status.Output, 0, len(b.outputs))
	for _, o := range b.outputs {
		outs = append(outs, o)
	}
	return outs
}

// addDecisions gives the transcript's recent calls (newest first) the
// decisions jig-core announced for them: by call id where the transcript
// names its calls (ids, one per call), else the newest calls of both lists
// are taken for the same calls as long as their tools agree.
func (b *Bridge) addDecisions(recent []status.Call, ids []string) {
	if len(ids) == len(recent) && !slices.Contains(ids, "") {
		for i, id := range ids {
			if j, ok := b.callIndex[id]; ok {
				b.calls[j].decideOn(&recent[i])
			}
		}
		return
	}
	j := len(b.calls) - 1
	for i := range recent {
		if j < 0 || b.calls[j].tool != recent[i].Tool {
			return
		}
		b.calls[j].decideOn(&recent[i])
		j--
	}
}

// decideOn gives a recent call the decision announced for it, if any.
func (c liveCall) decideOn(r *status.Call) {
	if c.decision != "" {
		r.Decision, r.Answer = c.decision, c.answer
		if c.action != "" {
			r.Action = c.action
		}
	}
}

// write writes the status over the file as it is, under the session's
// lock (see update).
func (b *Bridge) write() error {
	if b.session == "" {
		return nil
	}
	b.readTicket()
	s, err := b.writer().Write(b.update())
	var bad *writer.Refused
	switch {
	case errors.As(err, &bad):
		return fmt.Errorf("bridge: %w", bad)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("bridge: %v", err)
	case err == nil:
		b.last = s
	}
	return nil
}

// overlaySwitches is the switches of prev with the bridge's own laid over:
// the bridge says what requests switched, and keeps what others wrote.
func overlaySwitches(prev *status.Status, own status.Switches) status.Switches {
	out := status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}}
	if prev != nil {
		maps.Copy(out.Tools, prev.Switches.Tools)
		maps.Copy(out.Skills, prev.Switches.Skills)
	}
	maps.Copy(out.Tools, own.Tools)
	maps.Copy(out.Skills, own.Skills)
	return out
}

func (b *Bridge) send(r any) {
	if b.out == nil {
		return
	}
	data, _ := json.Marshal(r)
	b.out.Write(append(data, '\n'))
}

// noticeWidth bounds a notice in Pi's UI, in terminal cells.
const noticeWidth = 200

// noticeText is a notice as Pi's UI shows it: one short, clean line
// (values from a line, paths from others' files, cut short).
func noticeText(msg string) string {
	return render.Truncate(render.Clean(msg), noticeWidth)
}

// notice tells Pi's UI of a problem, once in a row: a state dir gone bad
// would otherwise say so at every event.
func (b *Bridge) notice(msg string) {
	msg = noticeText(msg)
	b.mu.Lock()
	defer b.mu.Unlock()
	if msg == b.lastNotice {
		return
	}
	b.lastNotice = msg
	b.send(Notice{Type: "notice", Message: msg})
}
