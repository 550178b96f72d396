package board

import (
	"fmt"
	"strings"
	"time"

	"jig/render"
	"jig/status"
)

// Keys the view takes, as the terminal loop names them.
const (
	KeyUp        = "up"
	KeyDown      = "down"
	KeyEnter     = "enter"
	KeyEsc       = "esc"
	KeyBackspace = "backspace"
	KeyTab       = "tab"
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
// its session across refreshes, which may reorder them), the filter, the
// menu of the selected session's tools or the keys while one is open, and
// the requests sent whose answer has not come yet.
type View struct {
	Colour bool // ◐ rows bold in colour, idle dim, a down host red, the selection in reverse video

	all       []Row
	rows      []Row // all, filtered
	selected  string
	menu      bool
	menuAt    int
	naming    *string // a tool's name being typed in the menu (+): one the file does not name
	top       int     // the first row shown when they do not all fit
	help      bool
	filtering bool
	filter    string
	message   string
	asked     map[string]asked // host/session → the request waiting for its answer
}

// asked is a request the view sent and the words it was sent with.
type asked struct{ id, what string }

func rowKey(r Row) string { return r.Host + "/" + r.Session }

// SetRows replaces the rows, keeping the selection on its session while it
// is there, else on the row at the same place, and says the answer of a
// session to a request the view sent once the session gives it.
func (v *View) SetRows(rows []Row) {
	v.all = rows
	v.refilter()
	for _, r := range rows {
		a, ok := v.asked[rowKey(r)]
		if !ok || !r.Answer.Answers(a.id) {
			continue
		}
		delete(v.asked, rowKey(r))
		word := "done"
		if !r.Answer.OK {
			word = "refused"
		}
		v.message = fmt.Sprintf("%s %s: %s", r.Project, word, strings.Join(strings.Fields(r.Answer.Message), " "))
	}
}

// refilter shows the rows the filter matches, keeping the selection.
func (v *View) refilter() {
	at := v.index()
	v.rows = v.rows[:0:0]
	for _, r := range v.all {
		if matches(r, v.filter) {
			v.rows = append(v.rows, r)
		}
	}
	if v.index() < 0 && len(v.rows) > 0 {
		v.selected = rowKey(v.rows[min(max(at, 0), len(v.rows)-1)])
	}
	if v.menu && v.current().Session == "" {
		v.menu, v.naming = false, nil // its session is gone, or filtered out
	}
	v.menuAt = min(v.menuAt, max(len(v.current().Tools)-1, 0))
}

// matches reports whether the filter (words, each to be found, any case)
// is in the row's project, state, agent, model, host, branch or id.
func matches(r Row, filter string) bool {
	if strings.TrimSpace(filter) == "" {
		return true
	}
	text := strings.ToLower(strings.Join([]string{r.Project, stateWord(r), r.Agent, r.Model, r.Host, r.Branch, r.Session}, " "))
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Say puts a message on the view's last line.
func (v *View) Say(msg string) { v.message = msg }

// Asked records that request id went to the row's session, so the view
// says its answer when the session gives it, and that it waits till then.
func (v *View) Asked(r Row, id, what string) {
	if v.asked == nil {
		v.asked = map[string]asked{}
	}
	v.asked[rowKey(r)] = asked{id, what}
	v.message = what + "; queued: taken at the session's next event"
	v.SetRows(v.all) // answered already
}

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

// nextWaiting selects the next row, after the selected one and round,
// whose session waits for the person.
func (v *View) nextWaiting() {
	at := v.index()
	for n := 1; n <= len(v.rows); n++ {
		r := v.rows[(at+n+len(v.rows))%len(v.rows)]
		if r.Err == "" && r.Attention != "" {
			v.selected = rowKey(r)
			v.message = ""
			return
		}
	}
	v.message = "no session waits for you"
}

// Key handles one key and says what the owner should do.
func (v *View) Key(k string) Action {
	switch {
	case v.help:
		v.help = false // any key closes the keys
		return Action{}
	case v.filtering:
		v.filterKey(k)
		return Action{}
	case v.menu:
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
	case "g":
		v.move(-len(v.rows))
	case "G":
		v.move(len(v.rows))
	case "n", KeyTab:
		v.nextWaiting()
	case "/":
		v.filtering = true
	case "?":
		v.help = true
	case KeyEsc:
		v.filter, v.message = "", ""
		v.refilter()
	case KeyEnter:
		if r.Session != "" {
			return Action{Kind: "jump", Row: r, Answer: "jumping to " + r.Project}
		}
	case "t":
		v.openMenu(r)
	case "r":
		return v.reload(r)
	}
	return Action{}
}

func (v *View) filterKey(k string) {
	switch k {
	case KeyEnter:
		v.filtering = false
	case KeyEsc:
		v.filtering, v.filter = false, ""
	case KeyBackspace:
		if f := []rune(v.filter); len(f) > 0 {
			v.filter = string(f[:len(f)-1])
		}
	default:
		if len([]rune(k)) == 1 && k >= " " && len(v.filter) < 64 {
			v.filter += k
		}
	}
	v.refilter()
}

// openMenu opens the menu of the row's tools (+ names one it does not).
func (v *View) openMenu(r Row) {
	if r.Session != "" {
		v.menu, v.menuAt, v.naming = true, 0, nil
	}
}

// reload asks the row's session to reload, where its agent can be
// reloaded from outside (Pi, and an agent that does not say which).
func (v *View) reload(r Row) Action {
	if r.Session == "" {
		return Action{}
	}
	if r.Agent != status.AgentPi && r.Agent != "" {
		v.message = r.Agent + " cannot be reloaded from outside: restart it in its pane"
		return Action{}
	}
	return Action{Kind: "reload", Row: r, Answer: "asked " + r.Project + " to reload when idle"}
}

func (v *View) menuKey(k string) Action {
	r := v.current()
	if v.naming != nil {
		return v.nameKey(r, k)
	}
	switch k {
	case "+":
		v.naming = new(string)
	case KeyUp, "k":
		v.menuAt = max(v.menuAt-1, 0)
	case KeyDown, "j":
		v.menuAt = min(v.menuAt+1, len(r.Tools)-1)
	case KeyEsc, "q", "t":
		v.menu = false
	case KeyEnter, " ":
		if len(r.Tools) == 0 {
			break
		}
		v.menu = false
		t := r.Tools[v.menuAt]
		return switchTool(r, t.Name, t.Off || t.Inactive)
	}
	return Action{}
}

// nameKey is a key while a tool's name is typed: Enter asks to turn it
// off, Esc goes back to the list.
func (v *View) nameKey(r Row, k string) Action {
	name := *v.naming
	switch k {
	case KeyEnter:
		v.menu, v.naming = false, nil
		if name != "" {
			return switchTool(r, name, false)
		}
	case KeyEsc:
		v.naming = nil
	case KeyBackspace:
		if n := []rune(name); len(n) > 0 {
			*v.naming = string(n[:len(n)-1])
		}
	default:
		if len([]rune(k)) == 1 && k > " " && len(name) < 64 {
			*v.naming = name + k
		}
	}
	return Action{}
}

// switchTool is the action that asks r's session to turn a tool on or off.
func switchTool(r Row, tool string, on bool) Action {
	word := "off"
	if on {
		word = "on"
	}
	return Action{Kind: "tool", Row: r, Tool: tool, On: on, Answer: fmt.Sprintf("asked %s to turn %s %s", r.Project, tool, word)}
}

// keysHelp is what `?` shows.
var keysHelp = []string{
	"↑/↓ k/j   move (g, G: first, last)",
	"n, Tab    the next session that waits for you",
	"Enter     jump to the session's pane",
	"t         its tools: Enter switches the selected one off or on, + names another",
	"r         ask it to reload when idle (Pi)",
	"/         filter by project, state, agent, model, host, branch or id",
	"Esc       clear the filter, close a menu",
	"?         these keys (any key closes them)",
	"q         quit (Ctrl-C too)",
}

// emptyHelp is what an empty board says to do next.
var emptyHelp = []string{
	"no live session here yet.",
	"  try it:         jig demo --live --agents 3   (in another pane)",
	"  wire an agent:  jig install pi | claude | codex",
	"  see the bar:    jig install tmux --write",
}

// Lines is the screen: a title, the rows with the selected one marked, the
// tool menu or the keys when open, and the message line, every string
// cleaned. Where the rows do not all fit in height (0: no limit) it shows
// the ones around the selection, and says how many more there are.
func (v *View) Lines(width, height int, now time.Time) []string {
	var below []string
	switch {
	case v.help:
		below = append(below, "")
		for _, l := range keysHelp {
			below = append(below, "  "+l)
		}
	case v.menu:
		below = v.menuLines()
	}
	if v.message != "" {
		below = append(below, "", render.Clean(v.message))
	}
	out := []string{v.style(render.Clean(v.title()), "1"), ""}
	rows, first := v.visible(height, len(out)+1+len(below)) // and the header
	sel := v.index() - first
	for i, l := range Lines(rows, max(width-2, 0), now) {
		if i == 0 {
			out = append(out, "  "+l)
			continue
		}
		mark := "  "
		if i-1 == sel {
			mark = "› "
		}
		out = append(out, v.rowStyle(rows[i-1], i-1 == sel, mark+l, width))
	}
	if more := len(v.rows) - len(rows); more > 0 {
		out = append(out, fmt.Sprintf("  … %d more (↑↓ scrolls, / filters)", more))
	}
	switch {
	case len(v.all) == 0:
		out = append(out[:2], emptyHelp...)
	case len(v.rows) == 0:
		out = append(out, "  no session matches "+render.Clean(v.filter))
	}
	return append(out, below...)
}

// visible is the rows that fit in height lines when used are taken
// (height 0: no limit), around the selection: the window moves only when
// the selection leaves it. It returns the first's index too.
func (v *View) visible(height, used int) ([]Row, int) {
	if height <= 0 || len(v.rows) == 0 || len(v.rows) <= height-used {
		return v.rows, 0
	}
	n := max(height-used-1, 1) // a line says how many more
	sel := max(v.index(), 0)
	v.top = min(max(v.top, sel-n+1), sel, max(len(v.rows)-n, 0))
	return v.rows[v.top : v.top+n], v.top
}

func (v *View) title() string {
	t := fmt.Sprintf("jig board · %d sessions", v.sessions())
	if n := v.waiting(); n > 0 {
		t += fmt.Sprintf(" · %s %d waiting (n)", render.GlyphAttention, n)
	}
	switch {
	case v.filtering:
		t += " · filter: " + v.filter + "▏"
	case v.filter != "":
		t += fmt.Sprintf(" · filter: %s (%d of %d, esc clears)", v.filter, len(v.rows), len(v.all))
	}
	return t + " · ↑↓ enter t r / ? · q quits"
}

func (v *View) menuLines() []string {
	r := v.current()
	head := "tools of " + r.Project
	if r.Offered != nil && len(r.Tools) < r.Offered.Total {
		head += fmt.Sprintf(" (it offers %d of %d; these are the ones its file names)", r.Offered.Active, r.Offered.Total)
	}
	out := []string{"", render.Clean(head + " · enter switches, + names another, esc closes:")}
	if len(r.Tools) == 0 {
		out = append(out, "  (its file names none yet: + names one to turn off)")
	}
	for i, t := range r.Tools {
		mark, state := "  ", "on"
		if i == v.menuAt {
			mark = "› "
		}
		switch {
		case t.Off:
			state = "off"
		case t.Inactive:
			state = "inactive"
		}
		out = append(out, render.Clean(fmt.Sprintf("  %s%-8s %s", mark, state, t.Name)))
	}
	if v.naming != nil {
		out = append(out, render.Clean("  turn off: "+*v.naming+"▏ (enter asks, esc goes back)"))
	}
	return out
}

// style wraps line in SGR code when the view is in colour.
func (v *View) style(line, code string) string {
	if !v.Colour || code == "" {
		return line
	}
	return "\x1b[" + code + "m" + line + "\x1b[0m"
}

// rowStyle is a row's line in its colours: what waits bold yellow, idle
// dim, a down host red; the selection in reverse video, to the width.
func (v *View) rowStyle(r Row, selected bool, line string, width int) string {
	if !v.Colour {
		return line
	}
	var code []string
	switch {
	case r.Err != "":
		code = append(code, "31")
	case r.Attention != "":
		code = append(code, "1", "33")
	case r.State == status.Idle:
		code = append(code, "2")
	}
	if selected {
		code = append(code, "7")
		line = render.Pad(line, width)
	}
	return v.style(line, strings.Join(code, ";"))
}

func (v *View) sessions() int {
	n := 0
	for _, r := range v.all {
		if r.Err == "" {
			n++
		}
	}
	return n
}

func (v *View) waiting() int {
	n := 0
	for _, r := range v.all {
		if r.Err == "" && r.Attention != "" {
			n++
		}
	}
	return n
}
