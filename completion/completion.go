// Package completion is what jig offers a shell completing its command
// line: the values a flag or an argument takes, read from the presets, the
// shells and the live sessions of the state dir, and the scripts that ask
// for them. Package cmdline walks the command line (its commands and
// flags); this package answers for the word typed.
package completion

import (
	"slices"
	"strings"

	"jig/render"
	"jig/status"
)

// The answers that ask the shell to complete file or folder names itself.
// Each comes alone, as the one line of the answer; no word jig offers starts
// with ':'.
const (
	Files = ":files"
	Dirs  = ":dirs"
)

// Line is the command line being completed, as cmd/jig read it.
type Line struct {
	Command string            // the command's full name without "jig": "request tool"
	Args    []string          // its arguments before the word typed
	Flags   map[string]string // the flags before it with their values, by name
	Flag    string            // the flag whose value is typed, or "" for an argument
}

// Values reads what a word may be.
type Values struct {
	Dir      *status.Dir // nil when the state dir cannot be found: no live values
	Live     status.Liveness
	Terminal string          // the terminal the shell runs in (innermost), or ""
	Hosts    func() []string // the board's hosts in jig's configuration (board.hosts); nil: none
}

// Next is what the word typed may be: the values of l.Flag, or of the
// command's next argument; nil when there are none, never file names unless
// Files or Dirs says so.
func (v Values) Next(l Line) []string {
	var out []string
	if l.Flag != "" {
		out = v.flagValues(l.Flag)
	} else {
		out = v.argValues(l)
	}
	if len(out) == 1 && (out[0] == Files || out[0] == Dirs) {
		return out
	}
	return slices.DeleteFunc(out, func(w string) bool { return strings.HasPrefix(w, ":") })
}

// flagValues are the values a flag's name says it takes.
func (v Values) flagValues(flag string) []string {
	switch flag {
	case "preset":
		return render.Presets
	case "shell":
		return render.Shells
	case "session":
		ids, _ := v.liveIDs()
		return ids
	case "terminal":
		_, terms := v.liveIDs()
		return terms
	case "host":
		if v.Hosts != nil {
			return v.Hosts()
		}
	case "transcript", "config":
		return []string{Files}
	case "cwd":
		return []string{Dirs}
	}
	return nil
}

// argValues are what a command takes as its next argument, after those
// typed: a command that has its arguments offers nothing more.
func (v Values) argValues(l Line) []string {
	n := len(l.Args)
	switch l.Command {
	case "session for-terminal":
		if n == 0 {
			_, terms := v.liveIDs()
			return terms
		}
	case "session show", "session path", "session context", "session watch":
		if n == 0 {
			ids, _ := v.liveIDs()
			return ids
		}
	case "completion":
		if n == 0 {
			return render.Shells
		}
	case "pi show", "pi tree", "pi fork", "claude show":
		if n == 0 {
			return []string{Files}
		}
	case "request tool", "request skill":
		switch {
		case n == 0:
			return v.switchable(strings.TrimPrefix(l.Command, "request "), l.Flags)
		case n == 1 && !strings.Contains(l.Args[0], "="):
			return []string{"on", "off"}
		}
	}
	return nil
}

// liveIDs are the ids of the live sessions and of their terminals, sorted;
// none when the state dir cannot be read (completion stays quiet).
func (v Values) liveIDs() (sessions, terminals []string) {
	if v.Dir == nil {
		return nil, nil
	}
	live := v.Live.Memo()
	seen := map[string]bool{}
	v.Dir.EachHead(false, func(h *status.Head, err error) error {
		if err != nil || !live.Alive(h.Status()) {
			return nil
		}
		sessions = append(sessions, h.Session)
		for _, t := range h.Terminals {
			if !seen[t.ID] {
				seen[t.ID] = true
				terminals = append(terminals, t.ID)
			}
		}
		return nil
	})
	slices.Sort(sessions)
	slices.Sort(terminals)
	return sessions, terminals
}

// switchable are the tools (kind "tool") or skills a request would switch
// for its session: the ones its status file names in contextDetail and
// switches, and for tools the recent calls', sorted. The session is the
// request's: --session, --terminal, else the one in this terminal.
func (v Values) switchable(kind string, flags map[string]string) []string {
	s := v.target(flags)
	if s == nil {
		return nil
	}
	var names []string
	switched := s.Switches.Skills
	if kind == "tool" {
		switched = s.Switches.Tools
		for _, c := range s.Recent {
			names = append(names, c.Tool)
		}
	}
	for name := range switched {
		names = append(names, name)
	}
	if d := s.ContextDetail; d != nil {
		items := d.Skills
		if kind == "tool" {
			items = d.Tools
		}
		for _, it := range items {
			names = append(names, it.Name)
		}
	}
	slices.Sort(names)
	return slices.DeleteFunc(slices.Compact(names), func(n string) bool { return n == "" })
}

// target is the live session a request names, or nil.
func (v Values) target(flags map[string]string) *status.Status {
	if v.Dir == nil {
		return nil
	}
	if id := flags["session"]; id != "" {
		s, err := v.Dir.Read(id)
		if err != nil || !v.Live.Alive(s) {
			return nil
		}
		return s
	}
	term := flags["terminal"]
	if term == "" {
		term = v.Terminal
	}
	if term == "" {
		return nil
	}
	s, _ := v.Dir.ForTerminal(term, v.Live) // nil when none, or unreadable
	return s
}
