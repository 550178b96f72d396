package main

import (
	"context"
	"errors"
	"fmt"
	"os"
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
			term := c.String("terminal")
			if term == "" && tmuxPane(e.getenv) == "" && e.getenv("HERDR_ENV") == "" && e.getenv("HERDR_SOCKET_PATH") == "" {
				return usageError(c, "outside tmux and Herdr, name the terminal to follow: jig panel --terminal ID")
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			src, err := newPanelSource(term, e.getenv)
			if err != nil {
				return err
			}
			src.dir, src.live, src.now = dir, e.liveness(), e.now
			out, ok := stdoutFile(e.stdout)
			if c.Bool("once") || !e.stdoutTTY || !ok {
				_, lines := src.frame()
				_, err := fmt.Fprintln(e.stdout, strings.Join(lines, "\n"))
				return err
			}
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			in, _ := e.stdin.(*os.File)
			return panel.Run(ctx, panel.Terminal{In: in, Out: out}, panel.Tick(ctx, c.Duration("interval")),
				func(int, int) []string {
					title, lines := src.frame()
					return append([]string{title, ""}, lines...)
				},
				func(k panel.Key) bool { return k == 'q' || k == 'Q' })
		},
	}
}

// newPanelSource is what the panel follows: the terminal given, else
// (inside tmux) the pane beside it, else (inside Herdr 1) the focused pane.
func newPanelSource(term string, getenv func(string) string) (*panelSource, error) {
	if term != "" {
		return &panelSource{terminal: term}, nil
	}
	if self := tmuxPane(getenv); self != "" {
		return &panelSource{tmuxSelf: self}, nil
	}
	bin, err := herdr1.Find(getenv)
	if err != nil {
		return nil, noHerdr(fmt.Errorf("%v; or name the terminal to follow: jig panel --terminal ID", err))
	}
	return &panelSource{herdrBin: bin, self: getenv("HERDR_PANE_ID")}, nil
}

// tmuxPane is the panel's own tmux pane when tmux is its innermost
// terminal, else "".
func tmuxPane(getenv func(string) string) string {
	if t := terminal.Innermost(terminal.Detect(getenv)); t != nil && t.From == terminal.Tmux {
		return t.ID
	}
	return ""
}

// noHerdr is a failure to find the herdr program: exit 8.
func noHerdr(err error) error { return status.Mark(herdr1.ErrNotFound, err) }

// panelSource decides which session the panel shows: a fixed terminal, or
// the pane Herdr 1 has focused.
type panelSource struct {
	dir      *status.Dir
	live     status.Liveness
	now      func() time.Time
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
		s, err := p.dir.ForTerminal(p.terminal, p.live)
		return "jig · terminal " + p.terminal + " · q quits", p.lines(s, err, p.terminal)
	}
	pane, err := p.focused()
	switch {
	case err != nil:
		return "jig · Herdr", []string{err.Error()}
	case pane == nil:
		return "jig · Herdr · q quits", []string{"focus a pane to follow its session"}
	}
	s, err := herdr1.SessionFor(p.dir, p.live, *pane)
	return "jig · Herdr pane " + pane.PaneID + " · q quits", p.lines(s, err, pane.PaneID)
}

// focused is the Herdr pane to follow: the focused one, unless that is the
// panel's own, then the one followed before; nil when there is none.
func (p *panelSource) focused() (*herdr1.Pane, error) {
	panes, err := herdr1.Panes(p.herdrBin)
	if err != nil {
		return nil, err
	}
	for _, pn := range panes {
		if pn.Focused && pn.PaneID != p.self {
			p.followed = pn.PaneID
		}
	}
	for i := range panes {
		if panes[i].PaneID == p.followed {
			return &panes[i], nil
		}
	}
	return nil, nil
}

// lines is the view of the session found in terminal where.
func (p *panelSource) lines(s *status.Status, err error, where string) []string {
	switch {
	case errors.Is(err, status.ErrUnsafeDir):
		return []string{"jig's state dir is not safe to read: " + err.Error()}
	case err != nil:
		return []string{"cannot read sessions: " + err.Error()}
	case s == nil:
		return panel.NoSession(where)
	}
	return panel.Lines(s, p.now())
}
