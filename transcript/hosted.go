package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"jig/status"
)

// ShownName is a tool's name as the recent list shows it: an MCP tool
// (mcp__server__tool) as server/tool, as the agents that name MCP tools
// so (Claude Code, Codex) do.
func ShownName(tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if server, name, ok := strings.Cut(rest, "__"); ok && server != "" && name != "" {
			return server + "/" + name
		}
	}
	return tool
}

// CursorHead opens the cursor of an agent's reader: whose it
// is (the cursors folder holds every agent's), the format of what follows,
// and the file it reads.
type CursorHead struct {
	Kind   string `json:"kind"`
	Format int    `json:"format"`
	Path   string `json:"path"`
}

// Check refuses a cursor of another kind, format or file: the file is then
// read afresh. agent names the kind in the error.
func (h CursorHead) Check(kind string, format int, path, agent string) error {
	switch {
	case h.Kind != kind || h.Format != format:
		return fmt.Errorf("cursor: not a %s cursor of this format", agent)
	case h.Path != path:
		return errors.New("cursor: for another file")
	}
	return nil
}

// ReadWhole reads an agent's transcript whole, for a show
// command: a file it cannot read, or one that names no session (none says
// what it lacks), is bad input.
func ReadWhole(r interface {
	Update() error
	SessionID() string
}, file, none string) error {
	if err := r.Update(); err != nil {
		return status.Mark(status.ErrBadInput, err)
	}
	if r.SessionID() == "" {
		return status.Mark(status.ErrBadInput, fmt.Errorf("%s: %s", file, none))
	}
	return nil
}

// JoinCursor is a cursor in two lines: head, where the reader stands, and
// state, what it knew (the bulk), each compact JSON (which holds no raw
// newline). A reader restores the head alone (SplitCursor) and decodes the
// state only when it reads on or derives: a hook that finds nothing new
// never decodes it.
func JoinCursor(head, state any) ([]byte, error) {
	h, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	s, err := json.Marshal(state)
	if err != nil {
		return nil, err
	}
	return append(append(h, '\n'), s...), nil
}

// DecodeHead decodes into head the members a one-line cursor (json.Marshal
// of its head's fields, then its "state") holds before its state, which
// it neither decodes nor reads: a hook that finds its file current needs
// no more. json.Marshal escapes every quote inside a string, so the first
// `,"state":` is where the head ends; a cursor laid out otherwise is an
// error.
func DecodeHead(data []byte, head any) error {
	end := bytes.Index(data, []byte(`,"state":`))
	if end < 0 {
		return errors.New("cursor: not a head and a state")
	}
	if err := status.UnmarshalObject(append(data[:end:end], '}'), head); err != nil {
		return fmt.Errorf("cursor: %w", err)
	}
	return nil
}

// SplitCursor decodes a JoinCursor's head into head and returns its state's
// bytes, not decoded (an object, else an error).
func SplitCursor(data []byte, head any) (state []byte, err error) {
	h, s, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || len(s) == 0 || s[0] != '{' {
		return nil, errors.New("cursor: not a head and a state")
	}
	if err := status.UnmarshalObject(h, head); err != nil {
		return nil, fmt.Errorf("cursor: %w", err)
	}
	return s, nil
}
