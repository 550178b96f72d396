package pi

import (
	"time"

	"jig/agents"
	"jig/agents/peer"
	"jig/serve/conversation"
	"jig/status"
)

// Agent is Pi in jig's registry of agents; its commands (`jig pi …`,
// `jig install pi`) are cmd/jig's own, so it names none here.
var Agent = peer.Agent{Agent: agents.Agent{ID: status.AgentPi, Label: "Pi", Herdr: "pi"},
	Conversation: func(getenv func(string) string, now func() time.Time) conversation.Reader {
		return Conversation{Sessions: NewSessions(getenv), Now: now}
	}}
