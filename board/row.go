// Package board is every live agent session on this machine and on the
// hosts the user names, one row each, attention first: what `jig board`
// shows, jumps to and steers. A remote host needs only ssh and jig: its rows
// are what `jig session list --json` prints there.
package board

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Row is one session on the board.
type Row struct {
	Host      string     `json:"host"`  // the machine it runs on
	Local     bool       `json:"local"` // on this machine
	Session   string     `json:"session"`
	Agent     string     `json:"agent"`
	Project   string     `json:"project"` // ticket key, else repository or folder name
	Model     string     `json:"model"`
	State     string     `json:"state"`                 // busy or idle
	Attention string     `json:"attention"`             // what waits for the person: permission, question, error; "" when nothing
	Tool      string     `json:"tool,omitempty"`        // the tool a permission waits on
	Context   *float64   `json:"contextPercent"`        // share of the window in use
	Cost      *float64   `json:"cost"`                  // dollars
	RateLimit *float64   `json:"rateLimitPercent"`      // the 5-hour limit's use, when the agent says it
	Since     time.Time  `json:"since"`                 // when the session entered this state
	Updated   time.Time  `json:"updatedAt"`             // its file's last change
	Terminal  *Terminal  `json:"terminal"`              // where to jump; nil when unknown
	Tools     []ToolName `json:"tools"`                 // what `t` offers
	Offered   *Offered   `json:"offered,omitempty"`     // how many tools the agent says it offers, when it counts them
	LastTool  string     `json:"lastTool,omitempty"`    // the newest call's tool
	Branch    string     `json:"branch,omitempty"`      // the git branch of its work tree (this machine's rows)
	Answer    *Answer    `json:"lastRequest,omitempty"` // the session's answer to the last request it took
	Err       string     `json:"error,omitempty"`       // set on a host's placeholder row: why it has no rows

	cwd string // the session's folder, for its branch
}

// Offered is the file's count of tools: active of total.
type Offered struct {
	Active int `json:"active"`
	Total  int `json:"total"`
}

// Answer is a session's answer to a request (the file's lastRequest); it
// also answers the requests it covers, merged into it while they waited.
type Answer struct {
	ID      string   `json:"id"`
	OK      bool     `json:"ok"`
	Message string   `json:"message"`
	Covers  []string `json:"covers,omitempty"`
}

// Answers reports whether the answer is the one to request id.
func (a *Answer) Answers(id string) bool {
	return a != nil && id != "" && (a.ID == id || slices.Contains(a.Covers, id))
}

// Terminal is where a session runs, as its innermost host names it.
type Terminal struct {
	From     string `json:"from"` // the variable that named it: TMUX_PANE, WEZTERM_PANE, …
	ID       string `json:"id"`
	Instance string `json:"instance,omitempty"` // which server of that host: tmux's socket, …
}

// ToolName is one of the session's tools, whether a request turned it off,
// and whether the agent does not offer it for another reason (Pi leaves
// grep, find and ls inactive).
type ToolName struct {
	Name     string `json:"name"`
	Off      bool   `json:"off"`
	Inactive bool   `json:"inactive,omitempty"`
}

// file is what the board reads of a status file: the contract's fields it
// shows, decoded the same way for a local file and a remote host's listing.
type file struct {
	Session      string  `json:"session"`
	Host         string  `json:"host"`
	CWD          string  `json:"cwd"`
	Agent        string  `json:"agent"`
	Terminal     *string `json:"terminal"`
	TerminalFrom *string `json:"terminalFrom"`
	Terminals    []struct {
		From     string `json:"from"`
		ID       string `json:"id"`
		Instance string `json:"instance"`
	} `json:"terminals"`
	Model *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"model"`
	State   string `json:"state"`
	Context struct {
		Percent *float64 `json:"percent"`
	} `json:"context"`
	Usage struct {
		Cost *float64 `json:"cost"`
	} `json:"usage"`
	Ticket *struct {
		Key string `json:"key"`
	} `json:"ticket"`
	Attention *struct {
		Kind  string    `json:"kind"`
		Since time.Time `json:"since"`
		Tool  string    `json:"tool"`
	} `json:"attention"`
	RateLimits *struct {
		FiveHour *struct {
			UsedPercent *float64 `json:"usedPercent"`
		} `json:"fiveHour"`
	} `json:"rateLimits"`
	StateSince *time.Time `json:"stateSince"`
	Outputs    []struct {
		Repo *string `json:"repo"`
	} `json:"outputs"`
	Switches struct {
		Tools map[string]bool `json:"tools"`
	} `json:"switches"`
	Tools  *Offered `json:"tools"`
	Recent []struct {
		Tool string `json:"tool"`
	} `json:"recent"`
	LastRequest   *Answer        `json:"lastRequest"`
	ContextDetail *contextDetail `json:"contextDetail"`
	UpdatedAt     time.Time      `json:"updatedAt"`
}

// contextDetail is what the board reads of a file's context detail: the
// names of its tools, for the `t` menu.
type contextDetail struct {
	Tools []detailTool `json:"tools"`
}

// detailTool is one of a context detail's tools.
type detailTool struct {
	Name     string `json:"name"`
	Off      bool   `json:"off"`
	Inactive bool   `json:"inactive"`
}

// rowOf is the row a status file's JSON gives; repo names the git work
// tree holding a folder of this machine ("" when none or unknown).
func rowOf(data []byte, repo func(dir string) string) (Row, error) {
	var f file
	if !decodeFields(data, &f) {
		f = file{} // laid out otherwise, or laid out as jig does but not jig's: read whole
		if err := json.Unmarshal(data, &f); err != nil {
			return Row{}, err
		}
	}
	return rowFrom(f, repo), nil
}

// rowFrom is the row of a decoded status file.
func rowFrom(f file, repo func(dir string) string) Row {
	r := Row{
		Host: f.Host, Session: f.Session, Agent: f.Agent, State: f.State,
		Context: f.Context.Percent, Cost: f.Usage.Cost, Updated: f.UpdatedAt, Since: f.UpdatedAt,
		Project: project(f, repo), cwd: f.CWD,
	}
	if f.Model != nil {
		r.Model = f.Model.Name
		if r.Model == "" {
			r.Model = f.Model.ID
		}
	}
	if f.StateSince != nil && !f.StateSince.IsZero() {
		r.Since = *f.StateSince
	}
	if a := f.Attention; a != nil && a.Kind != "" {
		r.Attention, r.Tool = a.Kind, a.Tool
		if !a.Since.IsZero() {
			r.Since = a.Since
		}
	}
	if l := f.RateLimits; l != nil && l.FiveHour != nil {
		r.RateLimit = l.FiveHour.UsedPercent
	}
	r.Terminal = terminalOf(f)
	r.Tools = toolsOf(f)
	if f.Tools != nil && f.Tools.Total > 0 {
		r.Offered = f.Tools
	}
	if len(f.Recent) > 0 {
		r.LastTool = f.Recent[0].Tool
	}
	if a := f.LastRequest; a != nil && a.ID != "" {
		r.Answer = a
	}
	return r
}

// project is the ticket's key, else the name of the repository holding the
// working folder (or of one the session wrote in), else the folder's name.
func project(f file, repo func(dir string) string) string {
	if f.Ticket != nil && f.Ticket.Key != "" {
		return f.Ticket.Key
	}
	if repo != nil && f.CWD != "" {
		if root := repo(f.CWD); root != "" {
			return filepath.Base(root)
		}
	}
	for _, o := range f.Outputs {
		if o.Repo != nil && *o.Repo != "" {
			return filepath.Base(*o.Repo)
		}
	}
	if f.CWD == "" {
		return ""
	}
	return filepath.Base(f.CWD)
}

// terminalOf is the terminal the file names, with its host instance when
// the writer recorded one.
func terminalOf(f file) *Terminal {
	if f.Terminal == nil || *f.Terminal == "" {
		return nil
	}
	t := &Terminal{ID: *f.Terminal}
	if f.TerminalFrom != nil {
		t.From = *f.TerminalFrom
	}
	for _, x := range f.Terminals {
		if x.ID == t.ID && x.From == t.From {
			t.Instance = x.Instance
			break
		}
	}
	return t
}

// toolsOf is the session's tools, by name, with the ones a request turned
// off and the ones the agent does not offer marked: the context detail's
// list where the agent gives one (Pi), and the tools the file names
// elsewhere where it gives none (Claude Code and Codex count their tools
// or name none, but their calls, their wait and their switches name them).
func toolsOf(f file) []ToolName {
	out := []ToolName{}
	seen := map[string]bool{}
	add := func(name string, off, inactive bool) {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		if on, ok := f.Switches.Tools[name]; ok {
			off = !on
		}
		out = append(out, ToolName{Name: name, Off: off, Inactive: inactive && !off})
	}
	if f.ContextDetail != nil {
		for _, t := range f.ContextDetail.Tools {
			add(t.Name, t.Off, t.Inactive)
		}
	}
	for name := range f.Switches.Tools {
		add(name, false, false)
	}
	if f.ContextDetail == nil || len(f.ContextDetail.Tools) == 0 {
		for _, c := range f.Recent {
			add(c.Tool, false, false)
		}
		if f.Attention != nil {
			add(f.Attention.Tool, false, false)
		}
	}
	slices.SortFunc(out, func(a, b ToolName) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// rank orders states: what waits for the person, then busy, then idle.
func rank(r Row) int {
	switch {
	case r.Err != "":
		return 3
	case r.Attention != "":
		return 0
	case r.State == "busy":
		return 1
	}
	return 2
}

// Sort orders rows attention › busy › idle; a host's placeholder row goes
// last. Within a state the order is stable, since it moves only when a
// session changes state: what waits, the longest wait first; busy and
// idle, the latest change of state first (a session just idle is the one
// to look at).
func Sort(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		ra, rb := rank(a), rank(b)
		if ra != rb {
			return ra - rb
		}
		since := b.Since.Compare(a.Since)
		if ra == 0 {
			since = -since
		}
		if since != 0 {
			return since
		}
		if c := strings.Compare(a.Host, b.Host); c != 0 {
			return c
		}
		return strings.Compare(a.Session, b.Session)
	})
}
