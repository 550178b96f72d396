package codex

import (
	"jig/agents"
	"jig/status"
)

// Agent is Codex CLI as readers name it; cmd/jig registers it.
var Agent = agents.Agent{ID: status.AgentCodex, Label: "Codex", Herdr: "codex"}
