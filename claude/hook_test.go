package claude

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"jig/status"
)

func TestRefusal(t *testing.T) {
	sw := status.Switches{Tools: map[string]bool{"Bash": false, "Read": true}, Skills: map[string]bool{"pdf": false}}
	for _, c := range []struct {
		tool, input, want string
	}{
		{"Bash", `{"command":"rm -rf /"}`, "jig: tool Bash is switched off for this session (jig request tool Bash on turns it back on)"},
		{"Read", `{}`, ""},
		{"Write", `{}`, ""},
		{"Skill", `{"skill":"pdf"}`, "jig: skill pdf is switched off for this session (jig request skill pdf on turns it back on)"},
		{"Skill", `{"skill":"other"}`, ""},
	} {
		out := refusal(sw, &Input{ToolName: c.tool, ToolInput: json.RawMessage(c.input)})
		if c.want == "" {
			if out != nil {
				t.Errorf("%s %s refused: %s", c.tool, c.input, out)
			}
			continue
		}
		var got struct {
			HookSpecificOutput struct {
				HookEventName, PermissionDecision, PermissionDecisionReason string
			}
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v: %s", c.tool, err, out)
		}
		h := got.HookSpecificOutput
		if h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" || h.PermissionDecisionReason != c.want {
			t.Errorf("%s: %+v", c.tool, h)
		}
		if strings.Contains(string(out), "rm -rf") {
			t.Errorf("the refusal repeats an argument: %s", out)
		}
	}
}

func TestClaudePID(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if got := ClaudePID(env("4242")); got != 4242 {
		t.Errorf("CLAUDE_PID=4242: %d", got)
	}
	// without it: the parent (go test's parent is no shell)
	if got := ClaudePID(env("")); got != os.Getppid() && got != parentOf(os.Getppid()) {
		t.Errorf("no CLAUDE_PID: %d, parent %d", got, os.Getppid())
	}
	if got := parentOf(os.Getpid()); got != os.Getppid() {
		t.Errorf("parentOf(self) = %d, want %d", got, os.Getppid())
	}
}

func TestCommandQuotingIsRecognised(t *testing.T) {
	for _, bin := range []string{"jig", "/usr/local/bin/jig", "/home/a b/bin/jig", "/o'brien/jig"} {
		for _, sub := range []string{"hook", "statusline"} {
			if c := Command(bin, sub); !isJig(c, sub) || isJig(c, "other") {
				t.Errorf("%s: %q not recognised as jig's %s", bin, c, sub)
			}
		}
	}
	for _, c := range []string{"notjig claude hook", "jig hook", "my-formatter", "'/x/jig"} {
		if isJig(c, "hook") {
			t.Errorf("%q taken for jig's hook", c)
		}
	}
}
