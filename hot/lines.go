package hot

import (
	"os"

	"github.com/mattn/go-isatty"

	"jig/agents/peer"
	"jig/exit"
	"jig/hook"
	"jig/render"
	"jig/status"
	"jig/terminal"
)

// Printer is the printer of o, the output flags a command was given, with
// what the environment adds: $NO_COLOR, the clock, the bounds of --jq and
// --format ($JIG_RENDER_TIMEOUT and the like; unreadable ones refuse those).
func (e *Env) Printer(o render.Output) (*render.Printer, error) {
	o.NoColor, o.Now = e.Getenv("NO_COLOR") != "", e.Now()
	bounds, err := render.BoundsFrom(e.Getenv)
	if err != nil && (o.JQ != nil || o.Format != nil) {
		return nil, status.Mark(render.ErrUsage, err)
	}
	o.Bounds = bounds
	return render.NewPrinter(o)
}

// ForTerminal is `jig session for-terminal [ID ...]`: out prints the live
// session whose terminals hold one of ids (none: this shell's terminal);
// exit 1 in silence when there is none, or outside any terminal.
func (e *Env) ForTerminal(out *render.Printer, ids []string) error {
	ids = terminal.HereUnless(ids, e.Getenv)
	if len(ids) == 0 {
		return noneFound(nil) // outside any terminal: quiet, for a prompt
	}
	dir, err := e.StateDir()
	if err != nil {
		return err
	}
	if len(ids) == 1 && out.Raw() {
		// The hot path of status bars: the file as it is, decoded no
		// further than needed to pick it.
		data, err := dir.ForTerminalRaw(ids[0], e.Liveness())
		if err != nil || data == nil {
			return noneFound(err)
		}
		return out.Doc(e.Stdout, data)
	}
	s, err := dir.ForTerminals(ids, e.Liveness(), out.Keys()...)
	if err != nil || s == nil {
		return noneFound(err)
	}
	return out.Status(e.Stdout, s)
}

// noneFound is a search's error, or exit 1 in silence when it found
// nothing: a status line shows nothing.
func noneFound(err error) error {
	if err != nil {
		return err
	}
	return exit.Silent(exit.None)
}

// Hook is `jig AGENT hook`: stdin to a's hook, its answer on stdout. A
// refusal stands whatever became of the write (an agent takes it only from
// a hook that exits 0): the write's error goes to say, beside it.
func (e *Env) Hook(a peer.Agent, say func(error)) error {
	out, err := a.Hook.Run(e.HookCall(e.Stdin)) // a terminal says nothing: the kit's Hooks.Stdin
	if len(out) == 0 {
		return err
	}
	if _, werr := e.Stdout.Write(out); werr != nil {
		return werr
	}
	if err != nil {
		say(err)
	}
	return nil
}

// StatusLine is `jig AGENT statusline`: the JSON the agent gives its
// status-line command, on stdin, recorded (a.StatusLine), and out prints
// the line.
func (e *Env) StatusLine(a peer.Agent, out *render.Printer) error {
	data, err := e.StdinData()
	if err != nil {
		return err
	}
	s, err := a.StatusLine(e.HookCall(nil), data)
	if err != nil {
		return err
	}
	return out.Status(e.Stdout, s)
}

// StdinData is what the agent says on stdin, bounded (hook.Read); nothing
// when stdin is a terminal (a person trying the command by hand).
func (e *Env) StdinData() ([]byte, error) {
	if f, ok := e.Stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		return nil, nil
	}
	return hook.Read(e.Stdin)
}
