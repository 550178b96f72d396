package status

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field limits. Free text is cut to its limit with a marker (Cut); lists
// keep their first entries (the newest, where the list is ordered so). With
// every field at its limit and every byte escaped, a file stays far below
// MaxFileSize (bound_test.go builds that file), so no writer can make a
// file its readers refuse.
const (
	MaxID        = 256  // bytes in a session id; a longer one is refused, not cut
	MaxName      = 128  // a model, provider, tool, skill, terminal, stage, part or item name
	MaxText      = 512  // a title, a message, a problem, a URL
	MaxPath      = 1024 // a path: cwd, a transcript, an output, a repo
	MaxTerminals = 8    // every terminal variable jig knows, with room to spare
	MaxSwitches  = 64   // switched tools, and again skills
	MaxItems     = 256  // context parts, and again tools, skills and files
	MaxStages    = 32
	MaxPRs       = 16
	MaxPRBytes   = 1024 // one PR as JSON; a longer one is left out
	MaxCovers    = 16
	MaxLabel     = 80 // a recent call's action, decision or answer
)

// cutMarker ends a cut value, so a reader sees it was cut.
const cutMarker = "…"

// CutTo returns v cut to at most n bytes, on a character boundary, ending
// in "…" when anything was cut.
func CutTo(v string, n int) string {
	if len(v) <= n {
		return v
	}
	i := n - len(cutMarker)
	for i > 0 && !utf8.RuneStart(v[i]) {
		i--
	}
	return v[:i] + cutMarker
}

// Cut is a value cut short for an error message: a few dozen bytes.
func Cut(v string) string { return CutTo(v, 40) }

// Bound cuts every free-text field of s to its limit and every list to its
// length. Normalize calls it, so both writers (the bridge and `jig session
// write`) write bounded files.
func (s *Status) Bound() {
	s.Host = CutTo(s.Host, MaxName)
	s.CWD = CutTo(s.CWD, MaxPath)
	s.Agent = CutTo(s.Agent, MaxName)
	s.AgentDir = CutTo(s.AgentDir, MaxPath)
	s.SessionFile = cutPtr(s.SessionFile, MaxPath)
	s.Terminal = cutPtr(s.Terminal, MaxName)
	s.TerminalFrom = cutPtr(s.TerminalFrom, MaxName)
	s.Terminals = s.Terminals[:min(len(s.Terminals), MaxTerminals)]
	for i := range s.Terminals {
		s.Terminals[i].From = CutTo(s.Terminals[i].From, MaxName)
		s.Terminals[i].ID = CutTo(s.Terminals[i].ID, MaxName)
		s.Terminals[i].Instance = CutTo(s.Terminals[i].Instance, MaxPath) // a socket's path
	}
	if m := s.Model; m != nil {
		m.Provider, m.ID, m.Name = CutTo(m.Provider, MaxName), CutTo(m.ID, MaxName), CutTo(m.Name, MaxName)
	}
	s.Thinking = cutPtr(s.Thinking, MaxName)
	if t := s.Ticket; t != nil {
		t.Key, t.Title, t.URL, t.From = CutTo(t.Key, MaxName), CutTo(t.Title, MaxText), CutTo(t.URL, MaxText), CutTo(t.From, MaxName)
	}
	if w := s.Workflow; w != nil {
		w.Name, w.Current, w.Since = CutTo(w.Name, MaxName), CutTo(w.Current, MaxName), CutTo(w.Since, MaxName)
		w.Problem = CutTo(w.Problem, MaxText)
		w.Stages = w.Stages[:min(len(w.Stages), MaxStages)]
		for i := range w.Stages {
			w.Stages[i] = CutTo(w.Stages[i], MaxName)
		}
		prs := w.PRs[:0]
		for _, pr := range w.PRs {
			if len(pr) <= MaxPRBytes && len(prs) < MaxPRs {
				prs = append(prs, pr)
			}
		}
		w.PRs = prs
	}
	for i := range s.Outputs {
		s.Outputs[i].Path = CutTo(s.Outputs[i].Path, MaxPath)
		s.Outputs[i].Repo = cutPtr(s.Outputs[i].Repo, MaxPath)
	}
	for i := range s.Recent {
		s.Recent[i].Tool = CutTo(s.Recent[i].Tool, MaxName)
	}
	if c := s.ContextDetail; c != nil {
		c.Parts = c.Parts[:min(len(c.Parts), MaxItems)]
		for i := range c.Parts {
			c.Parts[i].Name = CutTo(c.Parts[i].Name, MaxName)
		}
		c.Tools, c.Skills, c.Files = boundItems(c.Tools), boundItems(c.Skills), boundItems(c.Files)
	}
	if a := s.LastRequest; a != nil {
		a.ID, a.Message = CutTo(a.ID, MaxName), CutTo(a.Message, MaxText)
		a.Covers = a.Covers[:min(len(a.Covers), MaxCovers)]
		for i := range a.Covers {
			a.Covers[i] = CutTo(a.Covers[i], MaxName)
		}
	}
}

func boundItems(items []ContextItem) []ContextItem {
	items = items[:min(len(items), MaxItems)]
	for i := range items {
		items[i].Name = CutTo(items[i].Name, MaxName)
		items[i].Source = CutTo(items[i].Source, MaxName)
	}
	return items
}

func cutPtr(p *string, n int) *string {
	if p == nil || len(*p) <= n {
		return p
	}
	v := CutTo(*p, n)
	return &v
}

// PlacedPath reports whether an output path says where the file is: an
// absolute path, or one under the home folder ("~/…") when the writer did
// not know the home folder. A path relative to an unknown folder is not.
func PlacedPath(p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "~/")
}

// IsLabel reports whether s looks like a name ("allow", "deny once",
// "git-push", "read-part"): short, letters, digits, spaces and . _ : , -.
// A recent call's action, decision and answer must be labels, so the "no
// values" rule never rests on what a writer was given: a path, a command
// line or a secret is not one.
func IsLabel(s string) bool { return isName(s, MaxLabel) }

// IsToolName reports whether s may be an attention's tool: empty, or a
// name (IsLabel's characters) of at most MaxName bytes, as agents name
// their tools (bash, Bash, mcp__github__create_issue).
func IsToolName(s string) bool { return isName(s, MaxName) }

func isName(s string, max int) bool {
	if len(s) > max {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ._:,-", r) {
			return false
		}
	}
	return true
}

// validateFields is the part of Validate that both writers rely on for the
// "no values" rule and the file's shape: what the bridge filters out of
// what Pi says, `jig session write` refuses on stdin.
func (s *Status) validateFields() error {
	if len(s.Session) > MaxID {
		return fmt.Errorf("session id of %d bytes: at most %d", len(s.Session), MaxID)
	}
	for _, o := range s.Outputs {
		if !PlacedPath(o.Path) {
			return fmt.Errorf("output path %q: want an absolute path", Cut(o.Path))
		}
	}
	for _, c := range s.Recent {
		for _, f := range [...]struct{ name, v string }{{"action", c.Action}, {"decision", c.Decision}, {"answer", c.Answer}} {
			if !IsLabel(f.v) {
				return fmt.Errorf("recent %s %q: want a short name, never an argument value", f.name, Cut(f.v))
			}
		}
	}
	for kind, m := range map[string]map[string]bool{"tools": s.Switches.Tools, "skills": s.Switches.Skills} {
		if len(m) > MaxSwitches {
			return fmt.Errorf("switches.%s: %d names, at most %d", kind, len(m), MaxSwitches)
		}
		for name := range m {
			if name == "" || len(name) > MaxName {
				return fmt.Errorf("switches.%s: name %q: want 1 to %d bytes", kind, Cut(name), MaxName)
			}
		}
	}
	return nil
}
