package main

import (
	"jig/agents"
	"jig/claude"
	"jig/codex"
	"jig/gemini"
	"jig/opencode"
	"jig/pi"
	"jig/qwen"
)

// The agents jig knows, registered once at start-up: every reader names
// an agent through jig/agents, and the import policy
// (writer/architecture_test.go) takes the agents' folders from the
// registrations here. An agent adds one line.
func init() {
	agents.MustRegister(pi.Agent)
	agents.MustRegister(claude.Agent)
	agents.MustRegister(codex.Agent)
	agents.MustRegister(gemini.Agent)
	agents.MustRegister(qwen.Agent)
	agents.MustRegister(opencode.Agent)
}
