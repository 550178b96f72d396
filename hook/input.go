package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"

	"jig/status"
)

// MaxInput bounds what a hook reads of its stdin at all: past it, the
// input is not read on (a PreToolUse whose tool is not named by then is
// refused). Stdin records no input larger than a status file.
const MaxInput = 32 << 20

// Unreadable is the reason a call is refused when its hook's input cannot
// be read: jig cannot tell which call it is (fail closed).
const Unreadable = "jig: cannot read this hook's input, so the call is refused"

// Object reads one JSON object from dec key by key: field gets each key
// with the decoder at its value, which it reads (dec.Decode, Skip) or
// leaves unread by stopping. Nothing is kept that field does not keep.
func Object(dec *json.Decoder, field func(key string) (stop bool, err error)) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return errors.New("not a JSON object")
		}
		key, _ := t.(string)
		if stop, err := field(key); err != nil || stop {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return errors.New("not a JSON object")
	}
	return nil
}

// Skip passes over one value, token by token: nothing of it is kept.
func Skip(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// Reading is how the kit reads the hook input of an agent that takes it
// whole (Claude Code, Codex, Qwen Code): what it needs to refuse a call
// from the input's head when the whole cannot be had.
type Reading struct {
	PreTool   string   // the agent's name of its PreTool event ("PreToolUse")
	SkillTool string   // the tool whose tool_input.skill names the skill the call runs ("" none)
	CallIDs   []string // the keys naming the call's id, the first the one kept
	// Parse is the agent's reading of data, the whole input: an error
	// when it is not the agent's; else run runs the event (Run).
	Parse func(data []byte) (run func() ([]byte, error), err error)
	// Head is the agent for a call decided from its head alone: its Step
	// is never called (nothing is written).
	Head *Agent
}

// Stdin handles one event read from r for rd's agent. An input no larger
// than a status file is parsed whole and run (Run). One that is larger,
// or that the agent cannot parse, is bad input (status.ErrBadInput, no
// answer), except a PreToolUse, which the agent runs for whatever the
// hook answers: one too large is decided from its head alone (refused when
// its call is switched off, nothing written); one that cannot be read is
// refused, with the error. A terminal says nothing.
func (h *Hooks) Stdin(r io.Reader, rd Reading) ([]byte, error) {
	if f, ok := r.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		r = strings.NewReader("") // run by hand: no waiting for typing, bad input
	}
	data, err := io.ReadAll(io.LimitReader(r, status.MaxFileSize+1))
	if err != nil {
		return nil, badStdin(err)
	}
	if len(data) <= status.MaxFileSize {
		run, err := rd.Parse(data)
		if err == nil {
			return run()
		}
		if head, _ := rd.head(bytes.NewReader(data)); head.Name == rd.PreTool {
			return rd.Head.Words.Deny(head, Unreadable), badStdin(err)
		}
		return nil, badStdin(err)
	}
	head, err := rd.head(io.MultiReader(bytes.NewReader(data), r))
	if head.Name != rd.PreTool {
		return nil, badStdin(fmt.Errorf("larger than %d bytes", status.MaxFileSize))
	}
	if err == nil {
		err = head.incomplete(rd)
	}
	if err != nil {
		return rd.Head.Words.Deny(head, Unreadable), badStdin(err)
	}
	if reason := h.refusal(rd.Head, head); reason != "" {
		return rd.Head.Words.Deny(head, reason), h.NoDir // nothing to write; without a state dir, why
	}
	return nil, nil
}

// incomplete says what a call decided from its head lacks: the session,
// the tool, the skill of a skill tool's call (its arguments came before
// the tool was named).
func (ev *Event) incomplete(rd Reading) error {
	switch {
	case ev.Session == "":
		return errors.New("no session_id")
	case ev.Tool == "":
		return errors.New("no tool_name")
	case ev.Tool == rd.SkillTool && ev.Skill == "":
		return errors.New("no skill read of tool_input")
	}
	return nil
}

func badStdin(err error) error { return status.Mark(status.ErrBadInput, fmt.Errorf("stdin: %v", err)) }

// head reads what a refusal needs of a hook's input, key by key, at most
// MaxInput bytes of it: the session, the event, the tool, the call's id
// and the skill a SkillTool call runs. It stops at a PreTool's arguments
// once it has the rest (they may be a whole file; a call id after them
// goes unread); a SkillTool's it reads up to the skill. The event is
// what was read before an error.
func (rd Reading) head(r io.Reader) (*Event, error) {
	dec := json.NewDecoder(io.LimitReader(r, MaxInput))
	ev := &Event{Kind: PreTool}
	fields := map[string]*string{"session_id": &ev.Session, "hook_event_name": &ev.Name, "tool_name": &ev.Tool}
	ids := make([]string, len(rd.CallIDs))
	err := Object(dec, func(key string) (bool, error) {
		into := fields[key]
		if i := slices.Index(rd.CallIDs, key); i >= 0 {
			into = &ids[i]
		}
		switch {
		case into != nil:
			if dec.Decode(into) != nil {
				return false, fmt.Errorf("field %s: not a string", key)
			}
		case key == "tool_input" && ev.Tool != "" && ev.Tool == rd.SkillTool:
			return false, readSkill(dec, ev)
		case key == "tool_input" && ev.Name == rd.PreTool && ev.Session != "" && ev.Tool != "":
			return true, nil
		default:
			if Skip(dec) != nil {
				return false, errors.New("not a JSON object")
			}
		}
		return false, nil
	})
	if i := slices.IndexFunc(ids, func(id string) bool { return id != "" }); i >= 0 {
		ev.CallID = ids[i]
	}
	return ev, err
}

// readSkill reads a skill tool's arguments for the skill they name,
// passing over the rest.
func readSkill(dec *json.Decoder, ev *Event) error {
	return Object(dec, func(key string) (bool, error) {
		if key != "skill" {
			return false, Skip(dec)
		}
		if dec.Decode(&ev.Skill) != nil {
			return false, errors.New("field tool_input.skill: not a string")
		}
		return false, nil
	})
}
