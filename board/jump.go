package board

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

// jumpTimeout bounds a host program asked to focus a pane.
const jumpTimeout = 3 * time.Second

// ErrCannotJump is a session whose terminal no host program can focus.
var ErrCannotJump = errors.New("no way to focus its terminal")

// JumpCommand is the program and arguments that focus the row's terminal
// on this machine: tmux selects the pane's window and pane and switches
// the client to its session (on the pane's own server when the writer
// recorded it), WezTerm and kitty activate the pane or window, Herdr 1
// focuses the pane.
func JumpCommand(t *Terminal) ([]string, error) {
	if t == nil {
		return nil, fmt.Errorf("it names no terminal: %w", ErrCannotJump)
	}
	switch t.From {
	case terminal.Tmux:
		tmux := []string{"tmux"}
		if t.Instance != "" {
			tmux = append(tmux, "-S", t.Instance)
		}
		return append(tmux, "select-window", "-t", t.ID, ";", "select-pane", "-t", t.ID, ";",
			"switch-client", "-t", t.ID), nil
	case terminal.WezTerm:
		return []string{"wezterm", "cli", "activate-pane", "--pane-id", t.ID}, nil
	case terminal.Kitty:
		kitten := []string{"kitten", "@"}
		if t.Instance != "" {
			kitten = append(kitten, "--to", t.Instance)
		}
		return append(kitten, "focus-window", "--match", "id:"+t.ID), nil
	case terminal.Herdr1:
		return []string{"herdr", "pane", "focus", t.ID}, nil
	}
	return nil, fmt.Errorf("%s names its terminal: %w", t.From, ErrCannotJump)
}

// Jump focuses the pane of the one live session id names, or starts:
// status.ErrNoSession when none (or more than one) does, status.ErrNotFound
// when its terminal is one no host program can focus.
func (b *Board) Jump(ctx context.Context, id string) error {
	rows, err := b.Gather(ctx)
	if err != nil {
		return err
	}
	r, err := Find(rows, id)
	if err != nil {
		return status.Mark(status.ErrNoSession, fmt.Errorf("--jump: %w", err))
	}
	if err := b.SSH.Jump(ctx, r); err != nil {
		if errors.Is(err, ErrCannotJump) {
			return status.Mark(status.ErrNotFound, fmt.Errorf("--jump %s: %w", render.Clean(id), err))
		}
		return fmt.Errorf("--jump %s: %w", render.Clean(id), err)
	}
	return nil
}

// Jump focuses the row's pane: on this machine through its host program,
// on another through that machine's own jig (`jig board --jump ID`).
func (s SSH) Jump(ctx context.Context, r Row) error {
	if !r.Local {
		_, err := s.Run(ctx, r.Host, "board", "--jump", r.Session)
		return err
	}
	argv, err := JumpCommand(r.Terminal)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, jumpTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if r.Terminal.From == terminal.Tmux && strings.Contains(msg, "no current client") {
			return nil // its window and pane are the active ones; no client is attached to switch
		}
		if msg != "" {
			return fmt.Errorf("%s: %s", argv[0], firstLine(msg))
		}
		return fmt.Errorf("%s: %v", argv[0], err)
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
