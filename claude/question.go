package claude

import "jig/status"

// askUserQuestion is Claude Code's tool that asks the person a question.
const askUserQuestion = "AskUserQuestion"

// questionWait is the attention of an AskUserQuestion call, which is a
// question, not a permission. Claude Code 2.1.328 runs the call's
// PreToolUse, then a PermissionRequest and a permission_prompt
// Notification for it, while its screen shows the question: all three are
// the one question (kind and tool unchanged, so its since stays and a
// watcher hears of it once). handled is false for every other event.
func questionWait(in *Input, prev *status.Status) (a *status.Attention, keep, handled bool) {
	switch {
	case (in.Event == "PreToolUse" || in.Event == "PermissionRequest") && in.ToolName == askUserQuestion:
		return &status.Attention{Kind: status.AttentionQuestion, Tool: askUserQuestion}, false, true
	case in.Event == "Notification" && permissionNotices[in.NotificationType]:
		if p := prevAttention(prev); p != nil && p.Kind == status.AttentionQuestion && p.Tool == askUserQuestion {
			return nil, true, true // the question's own prompt notice
		}
	}
	return nil, false, false
}
