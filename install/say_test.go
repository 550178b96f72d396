package install

import (
	"reflect"
	"strings"
	"testing"
)

// What jig install says of each step: one line a thing done, in order.
func TestSay(t *testing.T) {
	if got := (File{"/c/x", Unchanged}).Line(); got != "/c/x (up to date)" {
		t.Errorf("unchanged: %q", got)
	}
	if got := (Edit{File: "/c/tmux.conf", Change: Removed, Deleted: []string{"/c/jig.lua"}}).Lines(true, "reload"); !reflect.DeepEqual(got,
		[]string{"removed jig's lines from /c/tmux.conf; reload", "removed /c/jig.lua"}) {
		t.Errorf("uninstall: %q", got)
	}
	if got := (Edit{File: "/c/tmux.conf"}).Lines(true, "reload"); !reflect.DeepEqual(got, []string{"/c/tmux.conf has no jig lines"}) {
		t.Errorf("nothing to uninstall: %q", got)
	}
	r := HerdrReport{Plugin: []File{{"/p/herdr-plugin.toml", Added}}, PluginDir: "/p", Link: LinkNoHerdr, PluginReady: true}
	got := r.Lines()
	if got[0] != "/p/herdr-plugin.toml" || got[2] != "  herdr plugin link /p" || !strings.HasPrefix(got[4], "[ui.sidebar.agents]") {
		t.Errorf("herdr: %q", got)
	}
	for _, l := range got {
		if strings.Contains(l, "\n") {
			t.Errorf("%q: one line each", l)
		}
	}
}
