package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"jig/pi/bridge"
	"jig/status"
)

// switchesEntry is the custom entry jig's extension appends when it
// applies a request (pi/jig-session.ts SWITCHES).
const switchesEntry = "jig-session.switches"

// fileTools are the tools whose path the extension sends (FILE_TOOLS).
var fileTools = map[string]bool{"write": true, "edit": true}

// askHold is how many entries' time a live demo's wait for the person
// lasts, so a board beside it shows ◐ for a while.
const askHold = 5

// replyWait bounds how long the replay waits for a reply the bridge owes.
const replyWait = 10 * time.Second

// pi plays Pi with jig's extension (pi/jig-session.ts) for one session: for
// each entry Pi writes into its transcript, it appends the line and sends a
// real bridge, on its stdin, the lines the extension sends at the Pi events
// that come with the entry, and answers the bridge's replies as the
// extension does. It knows what Pi knows live and the transcript cannot
// say: the model's display name and window (models), the tools Pi has and
// which are active, busy or idle.
type pi struct {
	b       *bridge.Bridge
	in      io.WriteCloser
	replies chan reply
	done    chan struct{} // closed when Run has returned runErr
	runErr  error
	clock   atomic.Pointer[time.Time]
	notices []string

	dir      *status.Dir
	getenv   func(string) string
	host     string
	session  string
	file     string
	cwd      string
	busy     bool
	model    *status.Model
	window   int64
	thinking string
	tools    []bridge.Tool  // every tool Pi has, in order
	sections map[string]any // the system prompt's sections, as the system entries left them

	// The live demo's: how often the bridge looks for a request (0: never,
	// none is filed), whether its bash calls wait for the person (◐), and
	// the switches to reload with once idle when a request asked for it.
	poll   time.Duration
	asks   bool
	reload *status.Switches
	hold   int // entries' worth of pauses the replay waits before the next: the person's time to see a wait
}

// reply is one line from the bridge.
type reply struct {
	Type string `json:"type"`
	bridge.Reply
	Message string `json:"message"` // a notice's
}

// entry is what the replay reads of a transcript line.
type entry struct {
	Type       string          `json:"type"`
	Timestamp  string          `json:"timestamp"`
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data"`
	Provider   string          `json:"provider"`
	ModelID    string          `json:"modelId"`
	Thinking   string          `json:"thinkingLevel"`
	Message    struct {
		Role         string                     `json:"role"`
		StopReason   string                     `json:"stopReason"`
		ToolName     string                     `json:"toolName"`
		ToolCallID   string                     `json:"toolCallId"`
		IsError      bool                       `json:"isError"`
		Sections     map[string]json.RawMessage `json:"sections"`
		ToolsAdded   []toolDecl                 `json:"toolsAdded"`
		ToolsRemoved []struct {
			Name string `json:"name"`
		} `json:"toolsRemoved"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// toolDecl is a tool as Pi declares it to the model.
type toolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toolCall is a part of an assistant message that calls a tool.
type toolCall struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments struct {
		Path any `json:"path"`
	} `json:"arguments"`
}

// startPi starts the session: Pi writes the transcript's header (line)
// and the extension starts a bridge.
func startPi(dir *status.Dir, getenv func(string) string, host, file string, header []byte, cwd, session string, at time.Time,
	live *liveDemo) (*pi, error) {
	if err := os.WriteFile(file, append(header[:len(header):len(header)], '\n'), 0o600); err != nil {
		return nil, err
	}
	p := &pi{dir: dir, getenv: getenv, host: host, session: session, file: file, cwd: cwd, sections: map[string]any{}}
	if live != nil {
		p.poll, p.asks = live.poll, live.asks
	}
	p.clock.Store(&at)
	return p, p.connect(nil)
}

// connect starts a bridge and says hello, as the extension does at
// session_start: hello (with the switches the session kept, after a
// reload), the inventory, the live fields asking for "ready" (the switches
// to re-apply), then the live fields again.
func (p *pi) connect(kept *status.Switches) error {
	p.replies, p.done = make(chan reply, 64), make(chan struct{})
	p.b = bridge.New(p.dir, func() time.Time { return *p.clock.Load() }, p.getenv, p.host)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p.in = inW
	b, replies, done := p.b, p.replies, p.done
	poll := p.poll
	if poll == 0 {
		poll = 24 * time.Hour // no request is filed in the replay: nothing to poll for
	}
	go func() {
		p.runErr = b.Run(inR, outW, poll)
		outW.Close()
		close(done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, status.MaxFileSize)
		for sc.Scan() {
			var r reply
			if json.Unmarshal(sc.Bytes(), &r) == nil {
				replies <- r
			}
		}
		close(replies)
	}()
	hello := bridge.Message{Type: "hello", Session: p.session, SessionFile: p.file, PID: os.Getpid(), Switches: kept}
	if err := p.send(hello); err != nil {
		return err
	}
	inv := p.inventory(nil)
	inv.Skills = p.skills()
	if err := p.send(inv); err != nil {
		return err
	}
	r, err := p.ask(bridge.Message{Type: "live", Live: p.live(), Ready: true}, "ready")
	if err != nil {
		return err
	}
	if err := p.apply(r); err != nil {
		return err
	}
	if err := p.sendLive(); err != nil {
		return err
	}
	return p.sync()
}

// step is one entry: Pi writes the line and the extension tells the bridge
// what came with it; once the bridge has handled every line, it returns.
func (p *pi) step(line []byte, en *entry, at time.Time) error {
	p.clock.Store(&at)
	if err := appendLine(p.file, line); err != nil {
		return err
	}
	if en.Type == "custom" && en.CustomType == switchesEntry {
		return p.reloadAs(en)
	}
	var err error
	switch en.Type {
	case "model_change": // model_select
		m := models[en.ModelID]
		p.model = &status.Model{Provider: en.Provider, ID: en.ModelID, Name: m.name}
		p.window = m.window
		err = p.sendLive()
	case "thinking_level_change": // thinking_level_select
		p.thinking = en.Thinking
		err = p.sendLive()
	case "message":
		err = p.message(en)
	}
	if err != nil {
		return err
	}
	if err := p.sync(); err != nil || p.reload == nil || p.busy {
		return err
	}
	kept := p.reload // a request asked to reload: Pi does once idle
	p.reload = nil
	if err := p.end(true); err != nil {
		return err
	}
	return p.connect(kept)
}

// message is what the extension sends around a message entry.
func (p *pi) message(en *entry) error {
	m := en.Message
	switch m.Role {
	case "system": // the system prompt changed: its tools, its skills
		p.system(en)
		return errors.Join(p.send(p.inventory(nil)), p.sendLive())
	case "user": // before_agent_start, agent_start
		skills := p.skills()
		p.busy = true
		return errors.Join(p.send(p.inventory(skills)), p.send(p.inventory(nil)), p.sendLive())
	case "assistant":
		if m.StopReason != "toolUse" {
			p.busy = false // agent_settled: idle
			return p.sendLive()
		}
		if err := p.sendLive(); err != nil { // turn_end
			return err
		}
		var parts []toolCall
		json.Unmarshal(m.Content, &parts)
		for _, c := range parts {
			if c.Type != "toolCall" {
				continue
			}
			call := &bridge.CallEvent{Phase: "start", ID: c.ID, Tool: c.Name}
			path, ok := c.Arguments.Path.(string)
			if !fileTools[c.Name] || !ok {
				if err := p.send(bridge.Message{Type: "call", Call: call}); err != nil {
					return err
				}
				if p.asks && c.Name == "bash" { // jig-core asks the person until the call ends: ◐
					ask := &bridge.DecisionEvent{ID: c.ID, Tool: c.Name, Decision: "ask"}
					if err := p.send(bridge.Message{Type: "decision", Decision: ask}); err != nil {
						return err
					}
					p.hold = askHold
				}
				continue
			}
			// the tool waits until the bridge has looked whether the file is there
			call.Path = path
			if _, err := p.ask(bridge.Message{Type: "call", Call: call}, "checked"); err != nil {
				return err
			}
		}
	case "toolResult": // tool_execution_end
		end := &bridge.CallEvent{Phase: "end", ID: m.ToolCallID, Tool: m.ToolName, Error: m.IsError}
		return errors.Join(p.send(bridge.Message{Type: "call", Call: end}), p.sendLive())
	}
	return nil
}

// system takes a system entry's changes: tools added (active) and removed
// from the active ones, sections replaced (null: gone).
func (p *pi) system(en *entry) {
	for _, t := range en.Message.ToolsAdded {
		decl, _ := marshalJS(t)
		tool := bridge.Tool{Name: t.Name, Source: "builtin", Active: true, Chars: int64(len(decl))}
		if i := slices.IndexFunc(p.tools, func(x bridge.Tool) bool { return x.Name == t.Name }); i >= 0 {
			p.tools[i] = tool
		} else {
			p.tools = append(p.tools, tool)
		}
	}
	for _, t := range en.Message.ToolsRemoved {
		p.setActive(func(name string) bool { return name != t.Name && p.isActive(name) })
	}
	for name, raw := range en.Message.Sections {
		var text *string
		json.Unmarshal(raw, &text)
		if text == nil {
			delete(p.sections, name)
		} else {
			p.sections[name] = *text
		}
	}
}

// skillBlock is a skill in the system prompt, as the extension finds it
// (before_agent_start).
var skillBlock = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\n?[ \t]*<skill>\s*<name>([^<]*)</name>[\s\S]*?</skill>`)
})

// skills is the skills the system prompt offers, each with its size.
func (p *pi) skills() []bridge.Skill {
	text, _ := p.sections["skills"].(string)
	skills := []bridge.Skill{}
	for _, m := range skillBlock().FindAllStringSubmatch(text, -1) {
		skills = append(skills, bridge.Skill{Name: m[1], Chars: int64(len(m[0]))})
	}
	return skills
}

// reloadAs is a switches entry: Pi applied a reader's request and kept its
// switches in the session. The replay files no request (a real state dir
// would keep the request folder's lock file); it has the bridge take the
// switches as it does after Pi reloads, which the recorded session did
// next: the bridge ends keeping the file, and a new one's hello carries the
// switches the session kept.
func (p *pi) reloadAs(en *entry) error {
	var kept status.Switches
	if err := json.Unmarshal(en.Data, &kept); err != nil {
		return fmt.Errorf("switches entry: %v", err)
	}
	if err := p.end(true); err != nil {
		return err
	}
	return p.connect(&kept)
}

// apply is the extension's apply of "ready": the tools the bridge worked
// out for the switches made active, and the inventory sent again.
func (p *pi) apply(r reply) error {
	if r.Active == nil {
		return nil
	}
	p.setActive(func(name string) bool { return slices.Contains(r.Active, name) })
	return p.send(p.inventory(nil))
}

func (p *pi) setActive(on func(name string) bool) {
	for i := range p.tools {
		p.tools[i].Active = on(p.tools[i].Name)
	}
}

func (p *pi) isActive(name string) bool {
	return slices.Contains(p.active(), name)
}

// active is the names of the active tools (pi.getActiveTools).
func (p *pi) active() []string {
	names := []string{}
	for _, t := range p.tools {
		if t.Active {
			names = append(names, t.Name)
		}
	}
	return names
}

// inventory is the extension's inventory line: the tools, or the skills
// when given.
func (p *pi) inventory(skills []bridge.Skill) bridge.Message {
	if skills != nil {
		return bridge.Message{Type: "inventory", Skills: skills}
	}
	return bridge.Message{Type: "inventory", Tools: append([]bridge.Tool{}, p.tools...)}
}

// live is the extension's live fields, as far as the replay knows them:
// Pi's own count of the context is the transcript's, which the bridge
// reads, so tokens and percent are left to it; a model, thinking level or
// tools not known yet are left out.
func (p *pi) live() json.RawMessage {
	l := map[string]any{"cwd": p.cwd, "state": status.Idle}
	if p.busy {
		l["state"] = status.Busy
	}
	if p.model != nil {
		l["model"] = p.model
		l["context"] = map[string]any{"window": p.window}
	}
	if p.thinking != "" {
		l["thinking"] = p.thinking
	}
	if len(p.tools) > 0 {
		l["tools"] = status.Tools{Active: len(p.active()), Total: len(p.tools)}
	}
	data, _ := json.Marshal(l)
	return data
}

func (p *pi) sendLive() error {
	return p.send(bridge.Message{Type: "live", Live: p.live()})
}

// send writes one line to the bridge's stdin.
func (p *pi) send(m bridge.Message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = p.in.Write(append(data, '\n'))
	return err
}

// ask sends m and waits for the reply of type want.
func (p *pi) ask(m bridge.Message, want string) (reply, error) {
	if err := p.send(m); err != nil {
		return reply{}, err
	}
	timeout := time.After(replyWait)
	for {
		select {
		case r, ok := <-p.replies:
			if !ok {
				<-p.done
				return reply{}, fmt.Errorf("the bridge stopped before its %s: %v", want, p.runErr)
			}
			if r.Type == want {
				return r, nil
			}
			if r.Type == "apply" { // a request a reader filed, in the live demo
				if err := p.applyRequest(r); err != nil {
					return reply{}, err
				}
			}
			if r.Type == "notice" { // nobody waits for it: sync reports it
				p.notices = append(p.notices, r.Message)
			}
		case <-timeout:
			return reply{}, fmt.Errorf("no %s from the bridge within %s", want, replyWait)
		}
	}
}

// applyRequest is the extension's apply of a request the bridge took: the
// tools it asks made active, the inventory sent again, the bridge told it
// is in force; a reload waits until Pi is idle (step).
func (p *pi) applyRequest(r reply) error {
	if r.Active != nil {
		p.setActive(func(name string) bool { return slices.Contains(r.Active, name) })
		if err := p.send(p.inventory(nil)); err != nil {
			return err
		}
	}
	if r.Reload {
		kept := r.Switches
		p.reload = &kept
	}
	return p.send(bridge.Message{Type: "applied", Applied: &bridge.Applied{ID: r.ID, Active: p.active()}})
}

// sync waits until the bridge has handled every line sent (it handles
// them in order, so its answer to "where" comes after), and fails with
// what the bridge refused meanwhile.
func (p *pi) sync() error {
	p.notices = p.notices[:0]
	if _, err := p.ask(bridge.Message{Type: "where"}, "where"); err != nil {
		return err
	}
	for _, n := range p.notices {
		if strings.HasPrefix(n, "bridge:") {
			return errors.New(n)
		}
	}
	return nil
}

// end ends the session as Pi does when it quits (the file goes) or, with
// keep, as it does before a reload (the file stays), and waits for the
// bridge to stop.
func (p *pi) end(keep bool) error {
	err := p.send(bridge.Message{Type: "end", Keep: keep})
	p.in.Close()
	for range p.replies {
	}
	<-p.done
	return errors.Join(err, p.runErr)
}

// marshalJS is JSON as JavaScript's JSON.stringify writes it (no HTML
// escapes), for a declaration's size as the extension measures it.
func marshalJS(t toolDecl) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
