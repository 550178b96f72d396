// Package terminal tells which terminal a process runs in, as each terminal
// host names it, innermost host first.
package terminal

import (
	"strings"

	"jig/status"
)

// The variables that name a terminal. Herdr strips the markers of the
// terminals around it; tmux does not, so inside tmux the kitty and WezTerm
// values are inherited from whoever started the tmux server and may be
// stale. They are still recorded, after the innermost one: a WezTerm status
// bar around tmux can only match on the WezTerm id.
const (
	HerdrCore = "HC_TERMINAL_ID" // herdr-core / Herdr.app: t7
	Herdr1    = "HERDR_PANE_ID"  // Herdr 1: w1:p2
	Tmux      = "TMUX_PANE"      // %3, only with TMUX set
	Kitty     = "KITTY_WINDOW_ID"
	WezTerm   = "WEZTERM_PANE"
)

// order is the precedence when nothing says which host is innermost:
// multiplexers inside terminal emulators.
var order = []string{HerdrCore, Herdr1, Tmux, Kitty, WezTerm}

// instanceVars name, for each terminal variable, the variable that says
// which instance of its host numbers the ids: a tmux server has its own %0,
// a kitty process its own window 1. tmux's is the socket, the first field
// of $TMUX (which tmux also gives the commands its status line runs);
// kitty's the process; WezTerm's and Herdr 1's the socket its panes talk
// to; herdr-core's the hc session.
var instanceVars = map[string]string{
	Tmux:      "TMUX",
	Kitty:     "KITTY_PID",
	WezTerm:   "WEZTERM_UNIX_SOCKET",
	Herdr1:    "HERDR_SOCKET_PATH",
	HerdrCore: "HC_SESSION",
}

// instance is the host instance of the terminal variable from, "" when
// the environment does not say.
func instance(getenv func(string) string, from string) string {
	v := getenv(instanceVars[from])
	if from == Tmux {
		v, _, _ = strings.Cut(v, ",") // socket,pid,session
	}
	return v
}

// Instances are the host instances a reader runs in, by the variable that
// names their terminals: the ids it is given are theirs
// (status.Liveness.Instances). A tmux status line's command has $TMUX but
// no $TMUX_PANE, so it knows its server without being in a pane.
func Instances(getenv func(string) string) map[string]string {
	in := map[string]string{}
	for _, from := range order {
		if v := instance(getenv, from); v != "" {
			in[from] = v
		}
	}
	return in
}

// Detect returns every terminal id found in the environment, innermost
// first, each with its host instance when the environment says it.
// TMUX_PANE counts only when TMUX is set too: a stray TMUX_PANE exported
// into a shell outside tmux names no pane.
//
// The innermost host is the one that set TERM or TERM_PROGRAM, which each
// host sets for its children and so always names the closest one: kitty sets
// TERM=xterm-kitty (and no TERM_PROGRAM, so an outer WezTerm's may linger),
// tmux, WezTerm and Herdr set TERM_PROGRAM. Without either, the order above.
func Detect(getenv func(string) string) []status.TerminalID {
	ids := []status.TerminalID{}
	for _, name := range order {
		v := getenv(name)
		if v == "" || (name == Tmux && getenv("TMUX") == "") {
			continue
		}
		ids = append(ids, status.TerminalID{From: name, ID: v, Instance: instance(getenv, name)})
	}
	if first := innermostVar(getenv); first != "" {
		for i, t := range ids {
			if t.From == first {
				copy(ids[1:i+1], ids[:i])
				ids[0] = t
				break
			}
		}
	}
	return ids
}

// innermostVar is the variable of the host that TERM or TERM_PROGRAM names,
// or "" when they name none jig knows.
func innermostVar(getenv func(string) string) string {
	if strings.HasPrefix(getenv("TERM"), "xterm-kitty") {
		return Kitty
	}
	switch strings.ToLower(getenv("TERM_PROGRAM")) {
	case "tmux":
		return Tmux
	case "wezterm":
		return WezTerm
	case "herdr":
		if getenv(HerdrCore) != "" {
			return HerdrCore
		}
		return Herdr1
	}
	return ""
}

// Innermost is the terminal the process runs in: the first detected, or
// nil when there is none.
func Innermost(ids []status.TerminalID) *status.TerminalID {
	if len(ids) == 0 {
		return nil
	}
	return &ids[0]
}

// HereUnless is ids, else this shell's innermost terminal's id; none
// outside any terminal jig knows.
func HereUnless(ids []string, getenv func(string) string) []string {
	if here := Detect(getenv); len(ids) == 0 && len(here) > 0 {
		return []string{here[0].ID}
	}
	return ids
}
