package board

import (
	"fmt"
	"time"

	"jig/render"
)

// Keys the view takes, as the terminal loop names them.
const (
	KeyUp    = "up"
	KeyDown  = "down"
	KeyEnter = "enter"
	KeyEsc   = "esc"
)

// Action is what a key asks of the board's owner.
type Action struct {
	Kind   string // "", "quit", "jump", "tool", "reload"
	Row    Row
	Tool   string
	On     bool
	Answer string // what the view says it is doing, for the message line
}

// View is the interactive board: the rows, which one is selected (kept by
// its session across refreshes, which may reorder them), and the menu of
// the selected session's tools while it is open.
type View struct {
	rows     []Row
	selected string // host/session of the selected row
	menu     bool
	menuAt   int
	message  string
}

func rowKey(r Row) string { return r.Host + "/" + r.Session }

// SetRows replaces the rows, keeping the selection on its session while it
// is there, else on the row at the same place.
func (v *View) SetRows(rows []Row) {
	at := v.index()
	v.rows = rows
	if v.index() < 0 && len(rows) > 0 {
		v.selected = rowKey(rows[min(max(at, 0), len(rows)-1)])
	}
	if v.menu && len(v.current().Tools) == 0 {
		v.menu = false
	}
}

// Say puts a message on the view's last line.
func (v *View) Say(msg string) { v.message = msg }

func (v *View) index() int {
	for i, r := range v.rows {
		if rowKey(r) == v.selected {
			return i
		}
	}
	return -1
}

func (v *View) current() Row {
	if i := v.index(); i >= 0 {
		return v.rows[i]
	}
	return Row{}
}

func (v *View) move(by int) {
	if len(v.rows) == 0 {
		return
	}
	i := min(max(v.index()+by, 0), len(v.rows)-1)
	v.selected = rowKey(v.rows[i])
}

// Key handles one key and says what the owner should do.
func (v *View) Key(k string) Action {
	if v.menu {
		return v.menuKey(k)
	}
	r := v.current()
	switch k {
	case "q", "Q":
		return Action{Kind: "quit"}
	case KeyUp, "k":
		v.move(-1)
	case KeyDown, "j":
		v.move(1)
	case KeyEnter:
		if r.Session != "" {
			return Action{Kind: "jump", Row: r, Answer: "jumping to " + r.Project}
		}
	case "t":
		if len(r.Tools) == 0 {
			v.message = "this session names no tools"
		} else {
			v.menu, v.menuAt = true, 0
		}
	case "r":
		if r.Session != "" {
			return Action{Kind: "reload", Row: r, Answer: "asked " + r.Project + " to reload when idle"}
		}
	}
	return Action{}
}

func (v *View) menuKey(k string) Action {
	r := v.current()
	switch k {
	case KeyUp, "k":
		v.menuAt = max(v.menuAt-1, 0)
	case KeyDown, "j":
		v.menuAt = min(v.menuAt+1, len(r.Tools)-1)
	case KeyEsc, "q", "t":
		v.menu = false
	case KeyEnter, " ":
		v.menu = false
		t := r.Tools[v.menuAt]
		word := "off"
		if t.Off {
			word = "on"
		}
		return Action{Kind: "tool", Row: r, Tool: t.Name, On: t.Off,
			Answer: fmt.Sprintf("asked %s to turn %s %s", r.Project, t.Name, word)}
	}
	return Action{}
}

// Lines is the screen: a title, the rows with the selected one marked, the
// tool menu when open, and the message line, every string cleaned.
func (v *View) Lines(width, height int, now time.Time) []string {
	out := []string{render.Clean(fmt.Sprintf("jig board · %d sessions · ↑↓ move · enter jump · t tools · r reload · q quits", v.sessions())), ""}
	table := Lines(v.rows, max(width-2, 0), now)
	sel := v.index()
	for i, l := range table {
		mark := "  "
		if i-1 == sel && i > 0 {
			mark = "› "
		}
		out = append(out, mark+l)
	}
	if len(v.rows) == 0 {
		out = append(out, "  no live session")
	}
	if v.menu {
		r := v.current()
		out = append(out, "", render.Clean("tools of "+r.Project+" (enter switches, esc closes):"))
		for i, t := range r.Tools {
			mark, state := "  ", "on"
			if i == v.menuAt {
				mark = "› "
			}
			if t.Off {
				state = "off"
			}
			out = append(out, render.Clean(fmt.Sprintf("  %s%-3s %s", mark, state, t.Name)))
		}
	}
	if v.message != "" {
		out = append(out, "", render.Clean(v.message))
	}
	return out
}

func (v *View) sessions() int {
	n := 0
	for _, r := range v.rows {
		if r.Err == "" {
			n++
		}
	}
	return n
}
