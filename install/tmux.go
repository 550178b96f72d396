package install

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"jig/hot"
)

// Tmux is `jig install tmux`: the lines that show the focused pane's agent
// in status-right (scripts/tmux/jig.conf), and with PaneBorder each pane's
// own in its border, calling jig by its absolute path (a #() job runs
// under /bin/sh without the shell's PATH).
type Tmux struct {
	Getenv     Getenv
	PaneBorder bool
	// Config is the tmux.conf to write; "" is ~/.config/tmux/tmux.conf when
	// it exists, else ~/.tmux.conf.
	Config string
}

// Lines are the tmux.conf lines.
func (t Tmux) Lines() (Lines, error) {
	bin, err := hot.LinePath(t.Getenv)
	if err != nil {
		return Lines{}, err
	}
	if strings.ContainsAny(bin, "'\n") {
		return Lines{}, fmt.Errorf("jig's path %q cannot go in a tmux.conf string", bin)
	}
	text := snippet("tmux/jig.conf")
	if t.PaneBorder {
		text += snippet("tmux/pane-border.conf")
	}
	return Lines{Text: strings.ReplaceAll(text, "#(jig ", "#("+strings.ReplaceAll(shellWord(bin), "#", "##")+" ")}, nil
}

func (t Tmux) block() Block {
	file := t.Config
	if file == "" {
		file = configFile(t.Getenv, ".config/tmux/tmux.conf", ".tmux.conf")
	}
	return Block{File: file, Comment: "#", Name: "tmux"}
}

// Write puts the lines in the config between jig's begin and end lines.
func (t Tmux) Write() (Edit, error) {
	lines, err := t.Lines()
	if err != nil {
		return Edit{}, err
	}
	b := t.block()
	edit, err := b.Write(lines.Text, AtEnd, "")
	edit.Reload = "tmux source-file " + shellWord(b.File)
	return edit, err
}

// tmuxSet is a tmux.conf line that sets a global option.
var tmuxSet = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*set(?:-option)? -g (\S+)`) })

// Uninstall takes jig's lines out of the config. A running tmux keeps the
// options they set until they are reset: Reload resets each and reads the
// config again, which keeps the user's sessions (tmux kill-server would end
// them all).
func (t Tmux) Uninstall() (Edit, error) {
	b := t.block()
	edit, lines, err := b.Remove()
	if err != nil || edit.Change != Removed {
		return edit, err
	}
	var steps []string
	for _, m := range tmuxSet().FindAllStringSubmatch(lines, -1) {
		steps = append(steps, "set -gu "+m[1])
	}
	if len(edit.Deleted) == 0 {
		steps = append(steps, "source-file "+shellWord(b.File))
	}
	if len(steps) > 0 {
		edit.Reload = "tmux " + strings.Join(steps, ` \; `)
	}
	return edit, nil
}
