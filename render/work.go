package render

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"jig/status"
)

// StatusLineFormat is the default --format of a status line: state, model,
// context and cost, short enough for tmux's status-right.
const StatusLineFormat = `{{.State}} · {{short .Model}} · ctx {{percent .Context.Percent}} · {{money .Usage.Cost}}`

// workRows is how many outputs and recent calls Work shows.
const workRows = 5

// Work is a small Work view of one session: the summary line, the ticket
// and workflow, the newest files and tool calls. The Herdr panel draws the
// full view; this one is for jig demo and plain terminals.
func Work(w io.Writer, s *status.Status, now time.Time) {
	Summary(w, s, now)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if s.Ticket != nil {
		fmt.Fprintf(tw, "ticket\t%s\t%s\n", Clean(s.Ticket.Key), Clean(s.Ticket.Title))
	}
	if wf := s.Workflow; wf != nil {
		fmt.Fprintf(tw, "workflow\t%s\t%s of %s\n", Clean(wf.Name), Clean(wf.Current), Clean(strings.Join(wf.Stages, " → ")))
	}
	label := "files"
	for i, o := range s.Outputs {
		if i == workRows {
			fmt.Fprintf(tw, "\t…\t%d more\n", len(s.Outputs)-workRows)
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s ago\n", label, o.Action, Clean(relPath(o, s.CWD)), Duration(now.Sub(o.At)))
		label = ""
	}
	label = "recent"
	for i, c := range s.Recent {
		if i == workRows {
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s ago\n", label, Clean(callName(c)), Clean(callOutcome(c)), Duration(now.Sub(c.At)))
		label = ""
	}
	tw.Flush()
}

// relPath shows an output's path from its repo (or the session's folder)
// when it lies inside.
func relPath(o status.Output, cwd string) string {
	base := cwd
	if o.Repo != nil {
		base = *o.Repo
	}
	if rel, err := filepath.Rel(base, o.Path); err == nil && base != "" && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return o.Path
}

func callName(c status.Call) string {
	if c.Action != "" {
		return c.Tool + " " + c.Action
	}
	return c.Tool
}

// callOutcome is the decision on a call and how it ended: "ask → allow
// once · ok".
func callOutcome(c status.Call) string {
	var parts []string
	if c.Decision != "" {
		d := c.Decision
		if c.Answer != "" {
			d += " → " + c.Answer
		}
		parts = append(parts, d)
	}
	return strings.Join(append(parts, c.Outcome), " · ")
}
