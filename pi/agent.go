package pi

import (
	"jig/agents"
	"jig/status"
)

// Agent is Pi as readers name it; cmd/jig registers it.
var Agent = agents.Agent{ID: status.AgentPi, Label: "Pi", Herdr: "pi"}
