package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"jig/status"
	"jig/transcript"
)

// Exported is what `opencode export ID` prints, in the fields jig reads.
type Exported struct {
	Info     ExportedInfo      `json:"info"`
	Messages []ExportedMessage `json:"messages"`
}

type ExportedInfo struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Directory string `json:"directory"`
	ParentID  string `json:"parentID"`
	Model     *struct {
		ID         string `json:"id"`
		ProviderID string `json:"providerID"`
		Variant    string `json:"variant"`
	} `json:"model"`
	Time struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	} `json:"time"`
}

type ExportedMessage struct {
	Info struct {
		ID         string  `json:"id"`
		Role       string  `json:"role"`
		ModelID    string  `json:"modelID"`
		ProviderID string  `json:"providerID"`
		Cost       float64 `json:"cost"`
		Tokens     *struct {
			Total     int64 `json:"total"`
			Input     int64 `json:"input"`
			Output    int64 `json:"output"`
			Reasoning int64 `json:"reasoning"`
			Cache     struct {
				Read  int64 `json:"read"`
				Write int64 `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	} `json:"info"`
	Parts []ExportedPart `json:"parts"`
}

// ExportedPart is one part of a message; jig reads tool parts only, and of
// their input only the file a write or edit touched.
type ExportedPart struct {
	Type   string `json:"type"`
	Tool   string `json:"tool"`
	CallID string `json:"callID"`
	State  struct {
		Status string `json:"status"`
		Input  struct {
			FilePath string `json:"filePath"`
		} `json:"input"`
		Metadata struct {
			Exists   *bool  `json:"exists"`
			FilePath string `json:"filepath"` // write's, absolute
		} `json:"metadata"`
		Time struct {
			Start int64 `json:"start"`
			End   int64 `json:"end"`
		} `json:"time"`
	} `json:"state"`
}

// ErrNotInstalled: the opencode binary is not there.
var ErrNotInstalled = status.Mark(status.ErrNoProgram, errors.New("opencode is not installed"))

// Limits of what jig reads from OpenCode's command line.
const (
	MaxExport  = 64 << 20 // bytes of one export or session list
	RunTimeout = 60 * time.Second
)

// CLI is OpenCode's command line: its binary, the environment it runs in
// (nil: jig's own) and its working folder ("": jig's own). OpenCode files
// what it reads under the project of that folder, and records the
// project's id in the folder's .git.
type CLI struct {
	Bin string
	Env []string
	Dir string
}

// Run runs OpenCode's command line, bounded in time and output, without
// plugins (--pure, and jig's own plugin stays out on JIG_OPENCODE_CHILD).
func (c CLI) Run(args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	bin := c.Bin
	cmd := exec.CommandContext(ctx, bin, append(args, "--pure")...)
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env, cmd.Dir = append(env, "JIG_OPENCODE_CHILD=1"), c.Dir
	var out limited
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &limitedBuf{&stderr, 4 << 10}
	err := cmd.Run()
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: %s (set $OPENCODE_BIN or put opencode on PATH)", ErrNotInstalled, bin)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("opencode %s: no answer within %s", args[0], RunTimeout)
	case out.over:
		return nil, fmt.Errorf("opencode %s: more than %d bytes", args[0], MaxExport)
	case err != nil:
		if msg := lastLine(bytes.TrimSpace(stderr.Bytes())); msg != "" {
			return nil, fmt.Errorf("opencode %s: %v: %s", args[0], err, msg)
		}
		return nil, fmt.Errorf("opencode %s: %v", args[0], err)
	}
	return out.buf.Bytes(), nil
}

func lastLine(b []byte) string {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return string(b)
}

// limited keeps at most MaxExport bytes and says when there was more.
type limited struct {
	buf  bytes.Buffer
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if l.buf.Len()+len(p) > MaxExport {
		l.over = true
		return 0, errors.New("too much output")
	}
	return l.buf.Write(p)
}

type limitedBuf struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuf) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// Export reads one session back through `opencode export ID`.
func (c CLI) Export(id string) (*Exported, error) {
	out, err := c.Run("export", id)
	if err != nil {
		return nil, err
	}
	var e Exported
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("opencode export %s: not an export: %v", id, err))
	}
	if e.Info.ID == "" {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("opencode export %s: no session in it", id))
	}
	return &e, nil
}

// Listed is one row of `opencode session list --format json`.
type Listed struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Updated   int64  `json:"updated"`
	Created   int64  `json:"created"`
	Directory string `json:"directory"`
}

// List is OpenCode's sessions, newest first, as transcript rows (no file:
// OpenCode keeps them in its database).
func (c CLI) List() ([]*transcript.Listed, error) {
	out, err := c.Run("session", "list", "--format", "json")
	if err != nil {
		return nil, err
	}
	var rows []Listed
	if len(bytes.TrimSpace(out)) > 0 {
		if err := json.Unmarshal(out, &rows); err != nil {
			return nil, status.Mark(status.ErrBadInput, fmt.Errorf("opencode session list: not a list: %v", err))
		}
	}
	list := make([]*transcript.Listed, 0, len(rows))
	for _, r := range rows {
		list = append(list, &transcript.Listed{ID: r.ID, Started: millis(r.Created).Format(time.RFC3339),
			Modified: millis(r.Updated), CWD: r.Directory})
	}
	slices.SortStableFunc(list, func(a, b *transcript.Listed) int { return b.Modified.Compare(a.Modified) })
	return list, nil
}

func millis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// Calls are the export's tool calls, oldest first: tool, outcome, when,
// and the file a write or edit touched with whether it was created.
type Call struct {
	ID, Tool, Outcome string
	At                time.Time
	Path              string
	Created           bool
}

// Calls reads the export's tool parts.
func (e *Exported) Calls() []Call {
	var calls []Call
	for _, m := range e.Messages {
		for _, p := range m.Parts {
			if p.Type != "tool" || p.Tool == "" {
				continue
			}
			c := Call{ID: p.CallID, Tool: p.Tool, At: millis(max(p.State.Time.End, p.State.Time.Start))}
			switch p.State.Status {
			case "completed":
				c.Outcome = status.OK
			case "error":
				c.Outcome = status.Error
			default:
				c.Outcome = status.Pending
			}
			path := p.State.Metadata.FilePath
			if !filepath.IsAbs(path) {
				path = p.State.Input.FilePath // as the model gave it: OpenCode reads it from the session's folder
				if !filepath.IsAbs(path) && filepath.IsAbs(e.Info.Directory) {
					path = filepath.Join(e.Info.Directory, path)
				}
			}
			if (p.Tool == "write" || p.Tool == "edit") && c.Outcome == status.OK && filepath.IsAbs(path) {
				c.Path = path
				c.Created = p.Tool == "write" && p.State.Metadata.Exists != nil && !*p.State.Metadata.Exists
			}
			calls = append(calls, c)
		}
	}
	return calls
}

// Outputs are the files the export's writes and edits touched, newest
// first; created once stays created.
func (e *Exported) Outputs() []status.Output {
	byPath := map[string]status.Output{}
	for _, c := range e.Calls() {
		if c.Path == "" {
			continue
		}
		o := status.Output{Path: c.Path, Action: status.Changed, At: c.At}
		if c.Created || byPath[c.Path].Action == status.Created {
			o.Action = status.Created
		}
		byPath[c.Path] = o
	}
	outs := make([]status.Output, 0, len(byPath))
	for _, o := range byPath {
		outs = append(outs, o)
	}
	slices.SortFunc(outs, func(a, b status.Output) int { return b.At.Compare(a.At) })
	return outs
}

// Derived is the export as jig's show prints a session: model, effort,
// usage and cost as OpenCode counted them, the last reply's context,
// outputs and recent calls.
func (e *Exported) Derived() *transcript.Derived {
	d := &transcript.Derived{Header: transcript.Header{ID: e.Info.ID, Timestamp: millis(e.Info.Time.Created).Format(time.RFC3339),
		CWD: e.Info.Directory}, Entries: len(e.Messages), Outputs: e.Outputs(), Recent: []status.Call{}}
	if m := e.Info.Model; m != nil {
		d.Model = &status.Model{Provider: m.ProviderID, ID: m.ID, Name: m.ID}
		d.Thinking = m.Variant
	}
	var cost float64
	for _, m := range e.Messages {
		t := m.Info.Tokens
		if m.Info.Role != "assistant" || t == nil {
			continue
		}
		d.Usage.Input += t.Input
		d.Usage.Output += t.Output + t.Reasoning
		d.Usage.CacheRead += t.Cache.Read
		d.Usage.CacheWrite += t.Cache.Write
		cost += m.Info.Cost
		if n := t.Total; n > 0 {
			d.ContextTokens = &n
		}
		if m.Info.ModelID != "" && d.Model == nil {
			d.Model = &status.Model{Provider: m.Info.ProviderID, ID: m.Info.ModelID, Name: m.Info.ModelID}
		}
	}
	d.Usage.Cost = &cost
	calls := e.Calls()
	for i := len(calls) - 1; i >= 0 && len(d.Recent) < status.MaxRecent; i-- {
		d.Recent = append(d.Recent, status.Call{At: calls[i].At, Tool: calls[i].Tool, Outcome: calls[i].Outcome})
	}
	return d
}

// Called is every tool the session called, sorted, once each.
func (e *Exported) Called() []string {
	var names []string
	for _, c := range e.Calls() {
		names = append(names, c.Tool)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
