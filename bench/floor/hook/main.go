// Command hook is a yardstick of bench/hooks.sh: a program that links only
// the four hook agents and runs one's hook as `jig AGENT hook` does (the
// same package call, the same Call), without the rest of jig. It is not a
// jig command: it shows how much of a hook's run is jig's start-up
// (docs/decisions.md).
package main

import (
	"os"
	"time"

	"jig/agents/peer"
	"jig/claude"
	"jig/codex"
	"jig/gemini"
	"jig/qwen"
	"jig/status"
)

func main() {
	agents := map[string]peer.Agent{"claude": claude.Agent, "codex": codex.Agent, "gemini": gemini.Agent, "qwen": qwen.Agent}
	a, ok := agents[os.Args[len(os.Args)-1]]
	if len(os.Args) != 2 || !ok {
		os.Exit(2)
	}
	host, _ := os.Hostname()
	out, err := a.Hook.Run(peer.Call{Stdin: os.Stdin, Now: time.Now, Getenv: os.Getenv, Host: host,
		Dir: func() (*status.Dir, error) { return status.Locate(os.Getenv) }})
	os.Stdout.Write(out)
	if err != nil && len(out) == 0 {
		os.Exit(4)
	}
}
