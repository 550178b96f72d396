package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"jig/status"
)

// request is one request file (schema 1).
type request struct {
	Schema int             `json:"schema"`
	ID     string          `json:"id"`
	Tools  map[string]bool `json:"tools"`
	Skills map[string]bool `json:"skills"`
	Reload bool            `json:"reload"`
}

// pendingRequest is a request sent to the extension, waiting for "applied".
type pendingRequest struct {
	id      string
	message string
	ok      bool
	reload  bool
}

// CheckRequests takes this session's request file, if there is one, and
// sends the extension what to apply.
func (b *Bridge) CheckRequests() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session == "" || b.pending != nil {
		return nil
	}
	req, err := b.take()
	if err != nil || req == nil {
		return err
	}
	next, active, skillsOff, msg, ok := b.resolve(req)
	b.switches = next
	b.pending = &pendingRequest{id: req.ID, message: msg, ok: ok, reload: req.Reload}
	b.send(Reply{Type: "apply", ID: req.ID, Active: active, SkillsOff: skillsOff, Switches: next, Reload: req.Reload})
	return nil
}

// take claims the request file in one step (rename), so a request is taken
// once and a reader's next request is never lost.
func (b *Bridge) take() (*request, error) {
	if err := b.Dir.Check(status.RequestsDir); err != nil {
		return nil, err
	}
	path := b.Dir.Path(status.RequestsDir, status.SafeName(b.session)+".json")
	claimed := b.Dir.Path(status.RequestsDir, fmt.Sprintf(".%s.taken-%d", status.SafeName(b.session), os.Getpid()))
	if err := os.Rename(path, claimed); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer os.Remove(claimed)
	data, err := status.ReadFileNoFollow(claimed)
	if err != nil {
		return nil, err
	}
	var r request
	if err := json.Unmarshal(data, &r); err != nil {
		b.answerNow(&status.Answer{ID: "", OK: false, Message: "request is not JSON: " + err.Error()})
		return nil, nil
	}
	return &r, nil
}

// resolve works out the next switches, the active tools and the skills
// left out, and the answer's words.
func (b *Bridge) resolve(r *request) (next status.Switches, active, skillsOff []string, msg string, ok bool) {
	next = status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}}
	for k, v := range b.switches.Tools {
		next.Tools[k] = v
	}
	for k, v := range b.switches.Skills {
		next.Skills[k] = v
	}
	byName := map[string]Tool{}
	for _, t := range b.tools {
		byName[t.Name] = t
	}
	var done, unknown []string
	for _, name := range sortedKeys(r.Tools) {
		on := r.Tools[name]
		t, has := byName[name]
		switch {
		case !has:
			unknown = append(unknown, "tool "+name)
		case t.Hidden && on:
			unknown = append(unknown, "tool "+name+" (hidden)")
		default:
			next.Tools[name] = on
			done = append(done, "tool "+name+" "+onOff(on))
		}
	}
	skills := map[string]bool{}
	for _, s := range b.skills {
		skills[s.Name] = true
	}
	for _, name := range sortedKeys(r.Skills) {
		on := r.Skills[name]
		if !skills[name] {
			unknown = append(unknown, "skill "+name)
			continue
		}
		next.Skills[name] = on
		done = append(done, "skill "+name+" "+onOff(on))
	}
	for _, t := range b.tools {
		on, switched := next.Tools[t.Name]
		if (switched && on && !t.Hidden) || (!switched && t.Active) {
			active = append(active, t.Name)
		}
	}
	for _, name := range sortedKeys(next.Skills) {
		if !next.Skills[name] {
			skillsOff = append(skillsOff, name)
		}
	}
	if r.Reload {
		done = append(done, "reload when idle")
	}
	msg = strings.Join(done, ", ")
	if len(unknown) > 0 {
		if msg != "" {
			msg += "; "
		}
		msg += "not found: " + strings.Join(unknown, ", ")
	}
	if msg == "" {
		msg = "nothing to do"
	}
	return next, active, skillsOff, msg, len(unknown) == 0
}

// applied is the extension's word that a request is in force.
func (b *Bridge) applied(a Applied) {
	p := b.pending
	if p == nil || p.id != a.ID {
		return
	}
	b.pending = nil
	ans := &status.Answer{ID: p.id, OK: p.ok, Message: p.message}
	if len(a.Missing) > 0 {
		ans.OK = false
		ans.Message += "; Pi did not activate: " + strings.Join(a.Missing, ", ")
	}
	if p.reload {
		t := true
		ans.Reload = &t
		if a.ReloadUnsupported {
			ans.OK = false
			ans.Message += "; this Pi cannot reload from an extension: type /session-reload"
		}
	}
	b.answerNow(ans)
}

func (b *Bridge) answerNow(a *status.Answer) {
	a.At = b.Now().UTC()
	b.answer = a
	b.write()
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
