package claude

import (
	"jig/agents"
	"jig/status"
)

// Agent is Claude Code as readers name it; cmd/jig registers it.
var Agent = agents.Agent{ID: status.AgentClaude, Label: "Claude Code", Herdr: "claude"}
