package claude

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWrappedLineRefreshes: a user's statusLine that jig wraps (--then)
// gets the refresh jig's own line has, so a request reaches an idle Claude
// as fast; a refresh of the user's own stays theirs, and --uninstall
// takes out only what jig added.
func TestWrappedLineRefreshes(t *testing.T) {
	for name, c := range map[string]struct {
		file    string
		refresh float64
	}{
		"none of theirs": {`{"statusLine": {"type": "command", "command": "ccstatusline"}}`, RefreshInterval},
		"theirs":         {`{"statusLine": {"type": "command", "command": "ccstatusline", "refreshInterval": 10}}`, 10},
	} {
		out, _, _, err := Install([]byte(c.file), "/opt/jig")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			StatusLine struct {
				Command         string
				RefreshInterval float64
			}
		}
		json.Unmarshal(out, &got)
		if got.StatusLine.RefreshInterval != c.refresh || !strings.Contains(got.StatusLine.Command, "--then 'ccstatusline'") {
			t.Errorf("%s: statusLine %+v, want refresh %v", name, got.StatusLine, c.refresh)
		}
		if again, changed, _, _ := Install(out, "/opt/jig"); changed {
			t.Errorf("%s: a second install changed it:\n%s", name, again)
		}
		if back, _, err := Uninstall(out); err != nil || string(back) != c.file {
			t.Errorf("%s: uninstall gave %s (%v)", name, back, err)
		}
	}
}
