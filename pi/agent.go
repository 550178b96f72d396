package pi

import (
	"jig/agents"
	"jig/agents/peer"
	"jig/status"
)

// Agent is Pi in jig's registry of agents; its commands (`jig pi …`,
// `jig install pi`) are cmd/jig's own, so it names none here.
var Agent = peer.Agent{Agent: agents.Agent{ID: status.AgentPi, Label: "Pi", Herdr: "pi"}}
