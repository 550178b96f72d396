// Package terminal tells which terminal a process runs in, as each terminal
// host names it, innermost host first.
package terminal

import "jig/status"

// The variables that name a terminal, innermost host first. Herdr strips the
// markers of the terminals around it; tmux does not, so inside tmux the
// kitty and WezTerm values are inherited from whoever started the tmux
// server and may be stale. They are still recorded, after the innermost one:
// a WezTerm status bar around tmux can only match on the WezTerm id.
const (
	HerdrCore = "HC_TERMINAL_ID" // herdr-core / Herdr.app: t7
	Herdr1    = "HERDR_PANE_ID"  // Herdr 1: w1:p2
	Tmux      = "TMUX_PANE"      // %3, only with TMUX set
	Kitty     = "KITTY_WINDOW_ID"
	WezTerm   = "WEZTERM_PANE"
)

var order = []string{HerdrCore, Herdr1, Tmux, Kitty, WezTerm}

// Detect returns every terminal id found in the environment, innermost
// first. TMUX_PANE counts only when TMUX is set too: a stray TMUX_PANE
// exported into a shell outside tmux names no pane.
func Detect(getenv func(string) string) []status.TerminalID {
	ids := []status.TerminalID{}
	for _, name := range order {
		v := getenv(name)
		if v == "" || (name == Tmux && getenv("TMUX") == "") {
			continue
		}
		ids = append(ids, status.TerminalID{From: name, ID: v})
	}
	return ids
}

// Innermost is the terminal the process runs in: the first detected, or
// nil when there is none.
func Innermost(ids []status.TerminalID) *status.TerminalID {
	if len(ids) == 0 {
		return nil
	}
	return &ids[0]
}
