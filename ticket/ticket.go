// Package ticket reads what the Jig plugins keep about the ticket a session
// works on: the configuration (memory, workflow and jira sections), the
// active ticket's key, its folder's ticket.json and workflow.json, the
// workflow definitions and the folder's user-facing files. It only reads;
// both status writers (the Pi bridge and `jig session write`) call it, so
// the reading is defined once. docs/ticket.md is its description.
package ticket

import (
	"path/filepath"

	"jig/engine"
	"jig/status"
)

// Where the active ticket's key came from, first that answers.
const (
	FromEvent  = "event"  // another extension said it (jig:ticket), or the hook's stdin
	FromChoice = "choice" // `jig ticket use KEY` for the working folder
	FromBranch = "branch" // the git branch of the working folder
)

// Key is the active ticket's key and where it came from.
type Key struct {
	Key  string
	From string
	// Head is the working folder's git HEAD, read when no event or choice
	// answered (for saying why there is no key).
	Head Head
}

// Sources are what the active ticket is found from.
type Sources struct {
	Event string      // a key said live, "" for none
	State *status.Dir // the state dir holding `jig ticket use` choices; nil: none
	CWD   string      // the session's working folder
}

// FindKey is the active ticket's key: a live event, else the choice for
// the working folder, else the key in its git branch. No key is Key{} and
// no error; an error is a source that could not be read (the next one is
// still tried).
func FindKey(src Sources) (Key, []error) {
	var errs []error
	if ValidKey(src.Event) {
		return Key{Key: src.Event, From: FromEvent}, nil
	}
	if src.State != nil && src.CWD != "" {
		key, _, err := Chosen(src.State, src.CWD)
		if err != nil {
			errs = append(errs, err)
		}
		if key != "" {
			return Key{Key: key, From: FromChoice}, errs
		}
	}
	if src.CWD == "" {
		return Key{}, errs
	}
	head, err := ReadHead(src.CWD)
	if err != nil {
		errs = append(errs, err)
	}
	if key := KeyOfBranch(head.Branch); key != "" {
		return Key{Key: key, From: FromBranch, Head: head}, errs
	}
	return Key{Head: head}, errs
}

// Found is what the status file shows of the active ticket.
type Found struct {
	Key      Key
	Folder   string // <memory.dir>/<KEY>, "" when there is none
	Ticket   *status.Ticket
	Workflow *status.Workflow
	Outputs  []status.Output
	Problems []error // files that could not be read; what they would give is left out
}

// Read reads the ticket of key under cfg: ticket, workflow and outputs
// from its folder when there is one. A key with no folder gives
// {key, url?}; no key gives nothing.
func Read(cfg *Config, key Key, repo func(string) *string) *Found {
	f := &Found{Key: key, Outputs: []status.Output{}}
	if key.Key == "" {
		return f
	}
	if cfg.MemoryDir != nil {
		folder := filepath.Join(cfg.MemoryDir.Value, key.Key)
		if fi, err := statDir(folder); err == nil && fi {
			f.Folder = folder
		}
	}
	var site, workflowDir string
	if cfg.JiraSite != nil {
		site = cfg.JiraSite.Value
	}
	if cfg.WorkflowDir != nil {
		workflowDir = cfg.WorkflowDir.Value
	}
	t, err := readTicket(f.Folder, key.Key, site)
	if t != nil {
		t.From = key.From
	}
	f.Ticket = t
	if err != nil {
		f.Problems = append(f.Problems, err)
	}
	w, err := readWorkflow(f.Folder, workflowDir)
	f.Workflow = w
	if err != nil {
		f.Problems = append(f.Problems, err)
	}
	if f.Folder != "" {
		f.Outputs = Outputs(f.Folder, repo)
	}
	return f
}

// Apply puts what was found in s: its ticket and workflow (null when there
// is none), and the folder's files joined to its outputs, one per path,
// the newest `at` winning; an output's action stays the one its writer
// knew.
func (f *Found) Apply(s *status.Status) {
	s.Ticket, s.Workflow = f.Ticket, f.Workflow
	s.Outputs = engine.MergeOutputs(s.Outputs, f.Outputs)
}

// Resolve is the whole reading, as both writers do it: the configuration
// for the working folder, the active key, its folder. Every problem met on
// the way is in Problems; what it would have given is left out.
func Resolve(getenv func(string) string, agentDir string, src Sources, repo func(string) *string) *Found {
	cfg := LoadConfig(getenv, src.CWD, agentDir)
	key, errs := FindKey(src)
	f := Read(cfg, key, repo)
	f.Problems = append(append(cfg.Problems(), errs...), f.Problems...)
	return f
}
