package terminal

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// TmuxTimeout bounds one tmux call: a panel must not hang on a server that
// does not answer.
const TmuxTimeout = 5 * time.Second

// TmuxFollow is the pane a panel in tmux pane self shows: the one the user
// works in, beside it in the same window. That is the window's active pane,
// unless it is the panel's own (the user went there to press q): then the
// window's last active pane, the one the user came from (at first, the one
// the panel was split from). "" when the window has no other pane. tmux is
// asked each time, so the panel moves with the focus, as it follows Herdr's.
func TmuxFollow(self string) (string, error) {
	panes, err := tmuxWindowPanes(self)
	if err != nil {
		return "", err
	}
	return followPane(panes, self), nil
}

// tmuxPane is one pane of a window, as list-panes tells it.
type tmuxPane struct {
	id           string
	active, last bool
}

// followPane is TmuxFollow's choice among the panes of the panel's window.
func followPane(panes []tmuxPane, self string) string {
	var active, last string
	for _, p := range panes {
		switch {
		case p.id == self:
		case p.active:
			active = p.id
		case p.last:
			last = p.id
		}
	}
	if active != "" {
		return active
	}
	return last
}

// tmuxWindowPanes lists the panes of the window pane is in: `tmux
// list-panes -t PANE`, through the server $TMUX names.
func tmuxWindowPanes(pane string) ([]tmuxPane, error) {
	ctx, cancel := context.WithTimeout(context.Background(), TmuxTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "list-panes", "-t", pane, "-F", "#{pane_id} #{pane_active} #{pane_last}")
	cmd.WaitDelay = 500 * time.Millisecond
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("tmux list-panes: no answer within %s", TmuxTimeout)
	case err != nil:
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("tmux list-panes: %s", msg)
	}
	var panes []tmuxPane
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || !strings.HasPrefix(f[0], "%") {
			return nil, fmt.Errorf("tmux list-panes: not the lines it prints: %q", line)
		}
		panes = append(panes, tmuxPane{id: f[0], active: f[1] == "1", last: f[2] == "1"})
	}
	return panes, nil
}
