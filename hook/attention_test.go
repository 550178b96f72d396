package hook

import (
	"testing"

	"jig/status"
)

// What each kind of event says of the wait, the same for every agent.
func TestAttentionByKind(t *testing.T) {
	bash := &status.Status{Attention: &status.Attention{Kind: status.AttentionPermission, Tool: "Bash"}}
	question := &status.Status{Attention: &status.Attention{Kind: status.AttentionQuestion}}
	asks := &status.Status{Attention: &status.Attention{Kind: status.AttentionQuestion, Tool: "AskUserQuestion"}}
	for _, c := range []struct {
		ev         Event
		prev       *status.Status
		kind, tool string // "" kind: none
	}{
		{Event{Kind: Permission, Tool: "Bash"}, nil, "permission", "Bash"},
		{Event{Kind: Permission, Tool: "rm -rf /"}, nil, "permission", ""},
		{Event{Kind: PermissionNotice}, bash, "permission", "Bash"},
		{Event{Kind: PermissionNotice}, question, "permission", ""},
		{Event{Kind: PermissionNotice}, nil, "permission", ""},
		{Event{Kind: Question}, nil, "question", ""},
		{Event{Kind: Other}, bash, "permission", "Bash"},
		{Event{Kind: Working}, bash, "permission", "Bash"},
		{Event{Kind: PreTool, Tool: "AskUserQuestion", Asks: true}, nil, "question", "AskUserQuestion"},
		// Claude 2.1.328 asks "permission" for the question, then notices
		// the prompt: still the one question
		{Event{Kind: Permission, Tool: "AskUserQuestion", Asks: true}, asks, "question", "AskUserQuestion"},
		{Event{Kind: PermissionNotice}, asks, "question", "AskUserQuestion"},
		{Event{Kind: PreTool, Tool: "AskUserQuestion", Asks: true}, asks, "question", "AskUserQuestion"},
		{Event{Kind: PreTool, Tool: "Bash"}, bash, "permission", "Bash"}, // the waiting call's own
		{Event{Kind: PreTool, Tool: "Read"}, bash, "", ""},
		{Event{Kind: PreTool, Tool: "Read", Outcome: status.Error}, bash, "", ""}, // refused, all the same
		{Event{Kind: PostTool, Tool: "Bash"}, bash, "", ""},
		{Event{Kind: ToolFailed, Tool: "Bash"}, bash, "", ""},
		{Event{Kind: Prompt}, bash, "", ""},
		{Event{Kind: Stop}, question, "", ""},
		{Event{Kind: Start}, bash, "", ""},
	} {
		s := &status.Status{}
		if c.prev != nil {
			s.Attention = c.prev.Attention
		}
		var names []string
		if c.ev.Tool != "" {
			names = []string{c.ev.Tool}
		}
		attend(s, c.prev, &c.ev, names)
		var kind, tool string
		if s.Attention != nil {
			kind, tool = s.Attention.Kind, s.Attention.Tool
		}
		if kind != c.kind || tool != c.tool {
			t.Errorf("%v %s: %q %q, want %q %q", c.ev.Kind, c.ev.Tool, kind, tool, c.kind, c.tool)
		}
	}
}

// A permission request marks the newest pending call of its tool "ask".
func TestPermissionMarksAsk(t *testing.T) {
	s := &status.Status{Recent: []status.Call{{Tool: "exec_command", Outcome: status.Pending}, {Tool: "exec_command", Outcome: status.Pending}}}
	attend(s, nil, &Event{Kind: Permission, Tool: "Bash"}, []string{"exec_command", "shell"})
	if s.Recent[0].Decision != "ask" || s.Recent[1].Decision != "" || s.Attention.Tool != "exec_command" {
		t.Errorf("recent %+v, attention %+v", s.Recent, s.Attention)
	}
}

func TestOffReason(t *testing.T) {
	sw := status.Switches{Tools: map[string]bool{"Bash": false, "shell": false, "Read": true}, Skills: map[string]bool{"pdf": false}}
	for _, c := range []struct {
		names []string
		skill string
		want  string
	}{
		{[]string{"Bash"}, "", "jig: tool Bash is switched off for this session (jig request tool Bash on turns it back on)"},
		{[]string{"exec_command", "shell"}, "", "jig: tool shell is switched off for this session (jig request tool shell on turns it back on)"},
		{[]string{"Read"}, "", ""},
		{[]string{"Write"}, "", ""},
		{nil, "", ""},
		{[]string{"Skill"}, "pdf", "jig: skill pdf is switched off for this session (jig request skill pdf on turns it back on)"},
		{[]string{"Skill"}, "other", ""},
	} {
		if got := offReason(c.names, c.skill, sw); got != c.want {
			t.Errorf("%v %q: %q, want %q", c.names, c.skill, got, c.want)
		}
	}
}

func TestKindNames(t *testing.T) {
	if PreTool.String() != "PreTool" || End.String() != "End" || Kind(99).String() != "Kind(99)" {
		t.Errorf("%v %v %v", PreTool, End, Kind(99))
	}
}
