package hook

import (
	"slices"

	"jig/status"
)

// attend records what the session waits for from the person after ev, from
// what the agent says (never its screen). A permission request is a
// permission wait for its tool (named as a switch names it) and marks the
// newest pending call of that tool "ask", as Pi's writer records
// jig-core's word; a permission notice is a permission wait that keeps the
// tool of the one standing; a question, or a call that asks the person, a
// question wait, its permission request and notice too. The waiting
// call's own PreToolUse keeps the wait (an
// agent runs a call's PreToolUse hooks and its permission request at
// once); any other call's, refused or not, ends it, as does a call's end, a
// prompt, a stop or a start. Since: status.Dir.Update keeps the first while
// the same wait goes on.
func attend(s, prev *status.Status, ev *Event, names []string) {
	var standing *status.Attention
	if prev != nil {
		standing = prev.Attention
	}
	waits := func(kind string) bool { return standing != nil && standing.Kind == kind }
	// A call that asks the person (Claude 2.1.328's AskUserQuestion) is
	// one question: its permission request and the permission notice
	// after it keep that wait (kind, tool, since), so it is heard of once.
	asking := waits(status.AttentionQuestion) && standing.Tool != ""
	switch {
	case ev.Kind == Permission && ev.Asks:
		s.Attention = &status.Attention{Kind: status.AttentionQuestion, Tool: shownTool(names)}
		return
	case ev.Kind == PermissionNotice && asking:
		return // the question's own prompt notice
	}
	switch ev.Kind {
	case Permission:
		s.Attention = &status.Attention{Kind: status.AttentionPermission, Tool: shownTool(names)}
		for i := range s.Recent {
			if c := &s.Recent[i]; c.Outcome == status.Pending && slices.Contains(names, c.Tool) {
				c.Decision = "ask"
				break
			}
		}
	case PermissionNotice:
		a := &status.Attention{Kind: status.AttentionPermission}
		if waits(status.AttentionPermission) {
			a.Tool = standing.Tool
		}
		s.Attention = a
	case Question:
		s.Attention = &status.Attention{Kind: status.AttentionQuestion}
	case PreTool:
		switch {
		case ev.Asks:
			s.Attention = &status.Attention{Kind: status.AttentionQuestion, Tool: shownTool(names)}
		case waits(status.AttentionPermission) && standing.Tool != "" && slices.Contains(names, standing.Tool):
			// the waiting call's own: the wait stays
		default:
			s.Attention = nil
		}
	case PostTool, ToolFailed, Prompt, Stop, Start:
		s.Attention = nil
	}
}

// shownTool is the name a wait gives its tool: the first a switch names it
// by, when that is a name, else none.
func shownTool(names []string) string {
	if len(names) > 0 && status.IsToolName(names[0]) {
		return names[0]
	}
	return ""
}
