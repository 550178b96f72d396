package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"jig/herdr/herdr1"
	"jig/panel"
	"jig/render"
	"jig/status"
	"jig/terminal"
)

// panelCommand is the Work view in a terminal: the Herdr 1 plugin's "work"
// pane, or a tmux/WezTerm split next to an agent.
func panelCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "panel",
		Usage: "show one session live in this terminal: model, context, cost, outputs, recent calls",
		UsageText: "jig panel [--terminal ID] [--interval 2s] [--once]\n\n" +
			"Without --terminal, inside tmux or Herdr 1, it follows the focused pane beside it (and ignores its own).\n" +
			"q quits. examples: jig panel --terminal %3    jig panel --terminal t7 --once",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "terminal", Usage: "follow the session in terminal `ID` (t7, %3, w1:p2)"},
			&cli.DurationFlag{Name: "interval", Value: 2 * time.Second, Usage: "how often to read the session"},
			&cli.BoolFlag{Name: "once", Usage: "print the view once and exit (also when stdout is not a terminal)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError(c, "takes no arguments; use --terminal ID")
			}
			if c.Duration("interval") < 100*time.Millisecond {
				return usageError(c, "--interval %s: want at least 100ms", c.Duration("interval"))
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			src := &panelSource{e: e, dir: dir, terminal: c.String("terminal")}
			if t := terminal.Innermost(terminal.Detect(e.getenv)); src.terminal == "" && t != nil && t.From == terminal.Tmux {
				src.tmuxSelf = t.ID
			} else if src.terminal == "" {
				if e.getenv("HERDR_ENV") == "" && e.getenv("HERDR_SOCKET_PATH") == "" {
					return usageError(c, "outside tmux and Herdr, name the terminal to follow: jig panel --terminal ID")
				}
				bin, err := herdr1.Find(e.getenv)
				if err != nil {
					return errorf(c, exitNoProgram, "%v; or name the terminal to follow: jig panel --terminal ID", err)
				}
				src.herdrBin, src.self = bin, e.getenv("HERDR_PANE_ID")
			}
			if c.Bool("once") || !e.stdoutTTY {
				_, lines := src.frame()
				fmt.Fprintln(e.stdout, strings.Join(lines, "\n"))
				return nil
			}
			if err := runLivePanel(e, src, c.Duration("interval")); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			return nil
		},
	}
}

// panelSource decides which session the panel shows: a fixed terminal, or
// the pane Herdr 1 has focused.
type panelSource struct {
	e        *env
	dir      *status.Dir
	terminal string // a fixed terminal id, or "" to follow Herdr's focus
	tmuxSelf string // inside tmux, the panel's own pane: follow the focus beside it
	herdrBin string
	self     string // the panel's own Herdr pane: focusing it changes nothing
	followed string // the Herdr pane followed last
}

// frame is the panel's title and lines now, cleaned of control characters
// so no text an agent wrote can move the cursor or retitle the terminal.
func (p *panelSource) frame() (string, []string) {
	title, lines := p.view()
	for i, l := range lines {
		lines[i] = render.Clean(l)
	}
	return render.Clean(title), lines
}

// view is the panel's title and lines now. Every failure becomes a quiet
// line in the view: the panel keeps running.
func (p *panelSource) view() (string, []string) {
	now := p.e.now()
	if p.tmuxSelf != "" {
		pane, err := terminal.TmuxFollow(p.tmuxSelf)
		switch {
		case err != nil:
			return "jig · tmux · q quits", []string{err.Error()}
		case pane == "":
			return "jig · tmux · q quits", []string{"focus a pane to follow its session"}
		}
		p.terminal = pane
	}
	if p.terminal != "" {
		title := "jig · terminal " + p.terminal + " · q quits"
		s, err := p.dir.ForTerminal(p.terminal, p.e.liveness())
		switch {
		case err != nil:
			return title, []string{quietError(err)}
		case s == nil:
			return title, panel.NoSession(p.terminal)
		}
		return title, panel.Lines(s, now)
	}
	panes, err := herdr1.Panes(p.herdrBin)
	if err != nil {
		return "jig · Herdr", []string{err.Error()}
	}
	for _, pn := range panes {
		if pn.Focused && pn.PaneID != p.self {
			p.followed = pn.PaneID
		}
	}
	title := "jig · Herdr pane " + p.followed + " · q quits"
	var pane *herdr1.Pane
	for i := range panes {
		if panes[i].PaneID == p.followed {
			pane = &panes[i]
		}
	}
	if pane == nil {
		return "jig · Herdr · q quits", []string{"focus a pane to follow its session"}
	}
	s, err := herdr1.SessionFor(p.dir, p.e.liveness(), *pane)
	switch {
	case err != nil:
		return title, []string{quietError(err)}
	case s == nil:
		return title, panel.NoSession(pane.PaneID)
	}
	return title, panel.Lines(s, now)
}

func quietError(err error) string {
	if errors.Is(err, status.ErrUnsafeDir) {
		return "jig's state dir is not safe to read: " + err.Error()
	}
	return "cannot read sessions: " + err.Error()
}
