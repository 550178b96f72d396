package bridge

import "jig/status"

// ContextSizes is what fills the context, in characters, as the extension
// measured it before the last model call. The bridge turns it into
// contextDetail: tokens are estimated as characters / 4, as Pi does.
type ContextSizes struct {
	SystemPrompt int64       `json:"systemPrompt"` // the whole system prompt, skills and context files included
	Files        []FileChars `json:"files"`        // context files (AGENTS.md, …) inside the system prompt
	SkillsPrompt int64       `json:"skillsPrompt"` // the skills list inside the system prompt
	Messages     int64       `json:"messages"`     // user, assistant and custom messages
	ToolResults  int64       `json:"toolResults"`
	JigMessages  int64       `json:"jigMessages"` // custom messages of Jig's extensions (customType jig…)
}

// FileChars is one context file's size.
type FileChars struct {
	Path  string `json:"path"`
	Chars int64  `json:"chars"`
}

func tokens(chars int64) int64 { return (chars + 3) / 4 }

// contextDetail builds the numbers `jig session context` and /context draw.
func (b *Bridge) contextDetail(c ContextSizes, window *int64) *status.ContextDetail {
	d := &status.ContextDetail{Tools: []status.ContextItem{}, Skills: []status.ContextItem{}, Files: []status.ContextItem{}}
	var toolChars, fileChars int64
	for _, t := range b.tools {
		if t.Hidden {
			continue
		}
		// Off is what a request switched off; a tool Pi leaves inactive by
		// default (grep, find, ls) is only inactive.
		on, switched := b.switches.Tools[t.Name]
		off := switched && !on && !t.Active
		d.Tools = append(d.Tools, status.ContextItem{Name: t.Name, Source: t.Source, Tokens: tokens(t.Chars), Off: off,
			Inactive: !t.Active && !off})
		if t.Active {
			toolChars += t.Chars
		}
	}
	for _, s := range b.skills {
		on, switched := b.switches.Skills[s.Name]
		off := switched && !on
		d.Skills = append(d.Skills, status.ContextItem{Name: s.Name, Source: s.Source, Tokens: tokens(s.Chars), Off: off})
	}
	for _, f := range c.Files {
		d.Files = append(d.Files, status.ContextItem{Name: f.Path, Tokens: tokens(f.Chars)})
		fileChars += f.Chars
	}
	system := c.SystemPrompt - c.SkillsPrompt - fileChars
	if system < 0 {
		system = 0
	}
	d.Parts = []status.ContextPart{
		{Name: "system", Tokens: tokens(system)},
		{Name: "tools", Tokens: tokens(toolChars)},
		{Name: "skills", Tokens: tokens(c.SkillsPrompt)},
		{Name: "files", Tokens: tokens(fileChars)},
		{Name: "messages", Tokens: tokens(c.Messages)},
		{Name: "toolResults", Tokens: tokens(c.ToolResults)},
	}
	if c.JigMessages > 0 {
		d.Parts = append(d.Parts, status.ContextPart{Name: "jigMessages", Tokens: tokens(c.JigMessages)})
	}
	for _, p := range d.Parts {
		d.Tokens += p.Tokens
	}
	d.Window = window
	return d
}
