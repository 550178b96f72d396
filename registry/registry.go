// Package registry is the agents jig knows, registered once at start-up
// by both programs that import it (cmd/jig, cmd/jig-fast): every reader
// names an agent through jig/agents, `jig <agent> …` and `jig install
// <agent>` are built from each one's descriptor (cmd/jig/agent.go), jig-fast
// runs their hooks, and the import policy (writer/architecture_test.go)
// takes the agents' folders from the registrations here. An agent adds one
// line.
package registry

import (
	"jig/agents/peer"
	"jig/claude"
	"jig/codex"
	"jig/gemini"
	"jig/opencode"
	"jig/pi"
	"jig/qwen"
)

func init() {
	peer.MustRegister(pi.Agent)
	peer.MustRegister(claude.Agent)
	peer.MustRegister(codex.Agent)
	peer.MustRegister(gemini.Agent)
	peer.MustRegister(qwen.Agent)
	peer.MustRegister(opencode.Agent)
}
