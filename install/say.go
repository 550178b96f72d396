package install

import (
	"fmt"
	"strings"

	"jig/herdr/herdr1"
)

// Line is what `jig install` says of one file a step wrote, found as
// wanted, or removed.
func (f File) Line() string {
	switch f.Change {
	case Unchanged:
		return f.Path + " (up to date)"
	case Removed:
		return "removed " + f.Path
	}
	return f.Path
}

// Lines is what a --write (or, uninstall, an --uninstall) did to a host's
// config, with hint (what the user does next) after a change, then each
// file that went with jig's lines.
func (e Edit) Lines(uninstall bool, hint string) []string {
	var l []string
	switch {
	case e.Change == Added:
		l = append(l, fmt.Sprintf("added to %s; %s", e.File, hint))
	case e.Change == Updated:
		l = append(l, fmt.Sprintf("updated jig's lines in %s; %s", e.File, hint))
	case e.Change == Removed:
		l = append(l, fmt.Sprintf("removed jig's lines from %s; %s", e.File, hint))
	case uninstall:
		l = append(l, e.File+" has no jig lines")
	default:
		l = append(l, e.File+" already has jig's lines")
	}
	for _, f := range e.Deleted {
		l = append(l, "removed "+f)
	}
	return l
}

// Lines is what `jig install herdr` did, in the order it did it.
func (r HerdrReport) Lines() []string {
	var l []string
	for _, f := range r.App {
		l = append(l, f.Line())
	}
	if r.Link == LinkRemoved {
		l = append(l, "herdr plugin jig unlinked")
	}
	for _, f := range r.Plugin {
		l = append(l, f.Line())
	}
	switch r.Link {
	case LinkNoHerdr:
		l = append(l, "herdr not found; to link the plugin, run:", "  herdr plugin link "+r.PluginDir)
	case LinkAlreadyOff:
		l = append(l, "herdr plugin jig (already linked, turned off: herdr plugin enable jig)")
	case LinkAlready:
		l = append(l, "herdr plugin jig (already linked)")
	case LinkMade:
		l = append(l, "herdr plugin jig linked from "+r.PluginDir)
	}
	if r.PluginReady {
		l = append(l, "Herdr shows jig's tokens only in a sidebar row that names them; add to Herdr's config.toml:")
		l = append(l, strings.Split(herdr1.SidebarRows, "\n")...)
	}
	for _, a := range r.HerdrOwns {
		l = append(l, "Herdr's own "+a+" integration is installed: Herdr keeps its own state for "+a+
			" panes and drops jig's (herdr integration uninstall "+a+" lets jig report them)")
	}
	return l
}
