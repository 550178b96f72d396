// Package scripts holds the snippets jig ships for tmux, WezTerm, kitty and
// shells. `jig install` prints them from here, so the file a user copies and
// the lines jig prints are the same text; README.md documents each one.
package scripts

import "embed"

// FS holds the snippets, by their path under scripts/.
//
//go:embed tmux/jig.conf tmux/pane-border.conf wezterm/jig.lua kitty/jig_kitty.py shell/jig.sh
var FS embed.FS
