package settingsjson

import "testing"

// TestParseDialects: comments are taken only where the agent strips them;
// a trailing comma never (neither JSON.parse nor encoding/json takes it);
// hooks must be an object or null.
func TestParseDialects(t *testing.T) {
	for _, c := range []struct {
		file               string
		plain, withComment bool
	}{
		{`{"a": 1}`, true, true},
		{"{\"a\": 1 // mine\n}", false, true},
		{`{"a": [1, /* x */ 2]}`, false, true},
		{`{"a": 1,}`, false, false},
		{"{\"a\": [1, 2, // c\n]}", false, false},
		{`{"hooks": null}`, true, true},
		{`{"hooks": []}`, false, false},
		{`[]`, false, false},
		{``, true, true},
	} {
		if _, err := Parse([]byte(c.file), Dialect{Agent: "Claude Code"}); (err == nil) != c.plain {
			t.Errorf("PlainJSON %q: %v", c.file, err)
		}
		if _, err := Parse([]byte(c.file), Dialect{Agent: "Gemini CLI", Comments: true}); (err == nil) != c.withComment {
			t.Errorf("Comments %q: %v", c.file, err)
		}
	}
}

// TestCommandIsJig: jig's command line, quoted when its path needs it, is
// recognised with its arguments, and so is jig-fast's, and nothing else is.
func TestCommandIsJig(t *testing.T) {
	for _, bin := range []string{"/usr/local/bin/jig", "/home/a b/bin/jig", "/o'dd/jig", "/usr/local/bin/jig-fast", "/home/a b/jig-fast"} {
		cmd := Command(bin, "gemini", "hook")
		if !IsJig(cmd, "gemini", "hook") || IsJig(cmd, "claude", "hook") || IsJig(cmd, "gemini", "hook", "x") {
			t.Errorf("%q", cmd)
		}
	}
	for _, cmd := range []string{"audit.sh", "/bin/notjig gemini hook", "/bin/jig-faster gemini hook", "jig", "'unterminated gemini hook"} {
		if IsJig(cmd, "gemini", "hook") {
			t.Errorf("%q taken for jig's", cmd)
		}
	}
}
