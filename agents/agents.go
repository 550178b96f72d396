// Package agents is the one list of the coding agents jig knows: the id a
// status file's `agent` holds, the name a sentence gives it, and Herdr's
// label for it. Every reader that names an agent asks here; no shared
// package switches over agent ids. The list is explicit (as restic's
// backend registry is): cmd/jig registers each agent once, at start-up,
// in registry.go, and a second registration of an id is refused.
package agents

import (
	"fmt"
	"sort"
	"sync"
)

// Agent is what readers may know of an agent without importing it.
type Agent struct {
	ID    string // the status file's `agent`: "pi", "claude-code", …
	Label string // as a sentence names it: "Claude Code"
	Herdr string // Herdr's agent label (src/detect/mod.rs agent_label); "" when Herdr has none
}

var (
	mu   sync.RWMutex
	byID = map[string]Agent{}
)

// Register adds an agent. An empty id or label, or an id already
// registered, is refused: two agents writing one id would be
// indistinguishable to every reader.
func Register(a Agent) error {
	if a.ID == "" || a.Label == "" {
		return fmt.Errorf("agents: %q needs an id and a label", a.ID)
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := byID[a.ID]; dup {
		return fmt.Errorf("agents: %q is registered twice", a.ID)
	}
	byID[a.ID] = a
	return nil
}

// MustRegister registers every agent, panicking on a refusal: the list is
// the program's own, so a refusal is a bug found at start-up.
func MustRegister(list ...Agent) {
	for _, a := range list {
		if err := Register(a); err != nil {
			panic(err)
		}
	}
}

// Lookup is the agent of an id.
func Lookup(id string) (Agent, bool) {
	mu.RLock()
	defer mu.RUnlock()
	a, ok := byID[id]
	return a, ok
}

// Label is how a sentence names the agent of an id; "the agent" for one
// not registered.
func Label(id string) string {
	if a, ok := Lookup(id); ok {
		return a.Label
	}
	return "the agent"
}

// All is every registered agent, by id.
func All() []Agent {
	mu.RLock()
	defer mu.RUnlock()
	list := make([]Agent, 0, len(byID))
	for _, a := range byID {
		list = append(list, a)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list
}
