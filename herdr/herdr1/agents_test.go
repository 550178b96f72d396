package herdr1

import (
	"jig/agents"
	"jig/status"
)

// The agents these tests name, registered as cmd/jig registers the real
// ones: this package knows agents only through jig/agents.
func init() {
	agents.MustRegister(
		agents.Agent{ID: status.AgentPi, Label: "Pi", Herdr: "pi"},
		agents.Agent{ID: status.AgentClaude, Label: "Claude Code", Herdr: "claude"},
		agents.Agent{ID: status.AgentCodex, Label: "Codex", Herdr: "codex"},
		agents.Agent{ID: "t-unnamed", Label: "An agent Herdr cannot name"},
		agents.Agent{ID: "t-opencode", Label: "OpenCode", Herdr: "opencode"}, // one registered after the first three
	)
}
