package hot

import (
	"jig/exit"
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
