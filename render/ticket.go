package render

import (
	"fmt"
	"io"
	"strings"

	"jig/status"
	"jig/ticket"
)

// TicketJSON is what `jig ticket show` prints on a pipe: the active
// ticket, its workflow, the source of its key, its folder (null when it
// has none) and its outputs.
func TicketJSON(f *ticket.Found) any {
	out := struct {
		Ticket   *status.Ticket   `json:"ticket"`
		Workflow *status.Workflow `json:"workflow"`
		From     string           `json:"from"`
		Folder   *string          `json:"folder"`
		Outputs  []status.Output  `json:"outputs"`
	}{f.Ticket, f.Workflow, f.Key.From, nil, f.Outputs}
	if f.Folder != "" {
		out.Folder = &f.Folder
	}
	return out
}

// Ticket is the active ticket for a person: its key, title and source,
// its URL, its workflow with the current stage marked, and its files.
func Ticket(w io.Writer, f *ticket.Found) {
	t := f.Ticket
	l := []string{t.Key + "  " + t.Title + "  (from the " + f.Key.From + ")"}
	if t.URL != "" {
		l = append(l, "  "+t.URL)
	}
	if wf := f.Workflow; wf != nil {
		var stages []string
		for _, s := range wf.Stages {
			if s == wf.Current {
				s = "[" + s + "]"
			}
			stages = append(stages, s)
		}
		l = append(l, fmt.Sprintf("  workflow %s: %s  %s", wf.Name, wf.Current, strings.Join(stages, " → ")))
	}
	if f.Folder == "" {
		l = append(l, "  no ticket folder")
	}
	for _, o := range f.Outputs {
		l = append(l, "  "+o.At.Local().Format("2006-01-02 15:04")+"  "+o.Path)
	}
	for _, line := range l {
		fmt.Fprintln(w, Clean(strings.TrimRight(line, " ")))
	}
}
