// Package follow decides which session jig panel shows, and draws it: the
// session in a terminal given, else (inside tmux) in the pane focused beside
// the panel, else (inside Herdr 1) in Herdr's focused pane.
package follow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"jig/herdr/herdr1"
	"jig/panel"
	"jig/render"
	"jig/status"
	"jig/terminal"
)

// New is what the panel follows: the terminal given, else
// (inside tmux) the pane beside it, else (inside Herdr 1) the focused pane.
func New(term string, getenv func(string) string) (*Source, error) {
	if term != "" {
		return &Source{terminal: term}, nil
	}
	if self := TmuxPane(getenv); self != "" {
		return &Source{tmuxSelf: self}, nil
	}
	bin, err := herdr1.Find(getenv)
	if err != nil {
		return nil, status.Mark(herdr1.ErrNotFound, fmt.Errorf("%v; or name the terminal to follow: jig panel --terminal ID", err))
	}
	return &Source{herdrBin: bin, self: getenv("HERDR_PANE_ID")}, nil
}

// Nowhere reports whether a panel told no terminal has nothing to follow:
// it runs outside tmux and Herdr.
func Nowhere(term string, getenv func(string) string) bool {
	return term == "" && TmuxPane(getenv) == "" && getenv("HERDR_ENV") == "" && getenv("HERDR_SOCKET_PATH") == ""
}

// TmuxPane is the panel's own tmux pane when tmux is its innermost
// terminal, else "".
func TmuxPane(getenv func(string) string) string {
	if t := terminal.Innermost(terminal.Detect(getenv)); t != nil && t.From == terminal.Tmux {
		return t.ID
	}
	return ""
}

// Source decides which session the panel shows: a fixed terminal, or
// the pane Herdr 1 has focused.
type Source struct {
	Dir      *status.Dir
	Live     status.Liveness
	Now      func() time.Time
	terminal string // a fixed terminal id, or "" to follow Herdr's focus
	tmuxSelf string // inside tmux, the panel's own pane: follow the focus beside it
	herdrBin string
	self     string // the panel's own Herdr pane: focusing it changes nothing
	followed string // the Herdr pane followed last
}

// Frame is the panel's title and lines now, cleaned of control characters
// so no text an agent wrote can move the cursor or retitle the terminal.
func (p *Source) Frame() (string, []string) {
	title, lines := p.view()
	for i, l := range lines {
		lines[i] = render.Clean(l)
	}
	return render.Clean(title), lines
}

// view is the panel's title and lines now. Every failure becomes a quiet
// line in the view: the panel keeps running.
func (p *Source) view() (string, []string) {
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
		s, err := p.Dir.ForTerminal(p.terminal, p.Live)
		return "jig · terminal " + p.terminal + " · q quits", p.lines(s, err, p.terminal)
	}
	pane, err := p.focused()
	switch {
	case err != nil:
		return "jig · Herdr", []string{err.Error()}
	case pane == nil:
		return "jig · Herdr · q quits", []string{"focus a pane to follow its session"}
	}
	s, err := herdr1.SessionFor(p.Dir, p.Live, *pane)
	return "jig · Herdr pane " + pane.PaneID + " · q quits", p.lines(s, err, pane.PaneID)
}

// focused is the Herdr pane to follow: the focused one, unless that is the
// panel's own, then the one followed before; nil when there is none.
func (p *Source) focused() (*herdr1.Pane, error) {
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
func (p *Source) lines(s *status.Status, err error, where string) []string {
	switch {
	case errors.Is(err, status.ErrUnsafeDir):
		return []string{"jig's state dir is not safe to read: " + err.Error()}
	case err != nil:
		return []string{"cannot read sessions: " + err.Error()}
	case s == nil:
		return panel.NoSession(where)
	}
	return panel.Lines(s, p.Now())
}

// Run redraws the view on t every interval until a q (or Q) is typed.
func (p *Source) Run(ctx context.Context, t panel.Terminal, interval time.Duration) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	return panel.Run(ctx, t, panel.Tick(ctx, interval),
		func(int, int) []string {
			title, lines := p.Frame()
			return append([]string{title, ""}, lines...)
		},
		func(k panel.Key) bool { return k == 'q' || k == 'Q' })
}
