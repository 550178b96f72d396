// Package fast is jig-fast: the lines a status line or an agent runs many
// times a minute — `session for-terminal` (hot), `AGENT hook` and `AGENT
// statusline` — answered as jig answers them, the agents' part of them in
// functions jig's commands call too. jig-fast (Main) links only this and
// the agents; jig-line (hot) only the status line.
package fast

import (
	"jig/agents/peer"
	"jig/exit"
	"jig/hot"
	"jig/render"
)

// Main is jig-fast: args (os.Args) answered as jig answers them. It takes
// `session for-terminal` and `AGENT statusline` without --jq or --then,
// and `AGENT hook`, read whole in the forms the installers write them;
// anything else it hands to jig (hot.Main).
func Main(args []string, e *hot.Env, jig func(args []string) error) int {
	return hot.Main(args, e, func(args []string) error { return answer(e, args) }, jig)
}

func answer(e *hot.Env, args []string) error {
	if len(args) < 2 {
		return hot.ErrPass
	}
	if args[0] == "session" {
		return e.AnswerLine(args)
	}
	a, ok := agent(args[0])
	switch {
	case ok && args[1] == "hook" && len(args) == 2 && a.Hook != nil:
		name := a.Name + " hook"
		err := Hook(e, a, func(err error) { exit.Say(e.Stderr, exit.Named(name, err)) })
		return exit.Named(name, err)
	case ok && args[1] == "statusline" && a.StatusLine != nil:
		o, ids, ok := hot.OutputFlags(args[2:], "refreshed")
		if !ok || len(ids) > 0 {
			return hot.ErrPass
		}
		if o.Preset == nil && o.Format == nil && !o.JSON {
			ansi := render.PresetANSI // the line Claude shows unless told otherwise
			o.Preset = &ansi
		}
		out, err := e.PassPrinter(o)
		if err != nil {
			return err
		}
		return exit.Named(a.Name+" statusline", StatusLine(e, a, out))
	}
	return hot.ErrPass
}

// agent is the registered agent whose commands are `jig NAME …`.
func agent(name string) (peer.Agent, bool) {
	for _, a := range peer.All() {
		if a.Name == name {
			return a, true
		}
	}
	return peer.Agent{}, false
}
