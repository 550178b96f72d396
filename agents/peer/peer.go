// Package peer is what jig's command line knows of an agent: its
// entry in the registry (package agents) and the parts every agent's
// commands share, as data and funcs of neutral types. cmd/jig builds from
// it, once for all, `jig <agent> hook`, `jig <agent> sessions`,
// `jig <agent> show` and `jig install <agent>`: an agent's folder exports
// one Agent and cmd/jig/registry.go registers it in one line, with no
// command of its own in cmd/jig.
package peer

import (
	"fmt"
	"io"
	"sync"
	"time"

	"jig/agents"
	"jig/serve/conversation"
	"jig/status"
	"jig/transcript"
)

// Agent is an agent as the registry and the command line know it. A part
// left nil is a command the agent does not have; an agent with no Name
// (Pi) keeps its own `jig <agent>` command in cmd/jig.
type Agent struct {
	agents.Agent
	Name  string // the command: `jig gemini …`, `jig install gemini`
	Usage string // its line in `jig --help`
	Hook  *Hook
	// StatusLine records the JSON an agent gives its status-line command
	// on stdin (Claude Code's statusLine) in the session's status file and
	// is the status the line shows; nil when the agent runs none.
	StatusLine func(call Call, data []byte) (*status.Status, error)
	Records    *Records
	Install    *Install
	// Conversation reads the agent's transcripts for `jig serve`'s page.
	Conversation func(getenv func(string) string, now func() time.Time) conversation.Reader
}

// Hook is `jig <agent> hook`: one event on stdin, the answer the agent
// reads on stdout.
type Hook struct {
	Usage, UsageText string
	// Run handles one event. An answer stands whatever the error: the
	// command prints the one and says the other.
	Run func(Call) ([]byte, error)
}

// Call is what a hook gets from the command line.
type Call struct {
	Stdin  io.Reader // the event; each agent reads it with its own bound
	Dir    func() (*status.Dir, error)
	Now    func() time.Time
	Getenv func(string) string
	Host   string
}

// Records are the agent's transcripts as `jig <agent> sessions` and
// `jig <agent> show` read them.
type Records struct {
	Kind    string // what the agent calls one: "chat record"
	Says    string // what show says of one: "model, usage, context, …"
	Example string // a file show takes, for its --help
	List    func(getenv func(string) string) ([]*transcript.Listed, error)
	// Show reads the one transcript arg names (a file, or a session id)
	// whole: --json prints it, the text is its Print.
	Show func(arg string, getenv func(string) string) (Shown, error)
}

// Shown is what show read of a transcript.
type Shown interface{ Print(io.Writer) }

// Install is `jig install <agent> [--uninstall]`: jig's entries merged
// into the agent's config, or taken out again. An agent whose install is
// one settings file gives Settings and Change (cmd/jig edits the file the
// one way every installer does, configfile's); one of more files gives Run.
type Install struct {
	Usage, UsageText string
	Settings         func(getenv func(string) string) (string, error)
	// Change is what the install makes of the file's bytes, and whether it
	// changed them; bin is the jig the entries run, an absolute path.
	Change func(bin string, uninstall bool) func(old []byte) ([]byte, bool, error)
	Run    func(Installing) (Installed, error)
}

// Installing is what an install's Run gets from the command line.
type Installing struct {
	Getenv    func(string) string
	Bin       string // the jig the entries run, an absolute path
	Uninstall bool
}

// Installed is what a Run did: the paths it changed and those it left as
// they were, and notes for stderr.
type Installed struct {
	Changed, Unchanged, Notes []string
}

var (
	mu   sync.Mutex
	list []Agent
)

// MustRegister registers each agent in package agents (a duplicate id
// panics there) and keeps it, in this order, for the command line; a
// second agent of one Name panics too: one command would hide the other.
func MustRegister(as ...Agent) {
	mu.Lock()
	defer mu.Unlock()
	for _, a := range as {
		for _, b := range list {
			if a.Name != "" && a.Name == b.Name {
				panic(fmt.Sprintf("peer: `jig %s` is registered twice", a.Name))
			}
		}
		agents.MustRegister(a.Agent)
		list = append(list, a)
	}
}

// All is every registered agent, in the order registered.
func All() []Agent {
	mu.Lock()
	defer mu.Unlock()
	return append([]Agent(nil), list...)
}
