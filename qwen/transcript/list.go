package transcript

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"jig/render"
	pi "jig/transcript"
)

// ProjectsDir is where Qwen Code keeps its transcripts, one folder per
// working folder (its path with / as -), each with a chats folder.
func ProjectsDir(qwenDir string) string { return filepath.Join(qwenDir, "projects") }

// List reads the head of every transcript under projects, newest first.
// A file that is no transcript is left out.
func List(projects string) ([]*Info, error) {
	return pi.List(filepath.Join(projects, "*", "chats", "*.jsonl"), ReadInfo)
}

// Find takes a file path, or a session id (or its start) to look up among
// the transcripts under projects.
func Find(arg, projects string) (string, error) {
	return pi.Find(arg, projects, func() ([]*Info, error) { return List(projects) })
}

// Shown is what `jig qwen show` says of a transcript read whole: what it
// derives, the window it records and the tools the model called.
type Shown struct {
	*pi.Derived
	Window *int64   `json:"window"`
	Called []string `json:"called"`
}

// Show reads the transcript file whole. A file that is no Qwen Code
// transcript is status.ErrBadInput.
func Show(file string) (*Shown, error) {
	r := NewReader(file)
	if err := pi.ReadWhole(r, file, "not a Qwen Code transcript: no session id"); err != nil {
		return nil, err
	}
	return &Shown{Derived: r.Derive(pi.NewRepoFinder().Repo), Window: r.Window(), Called: append([]string{}, r.Called()...)}, nil
}

// Print is what the transcript says, as `jig qwen show` prints it. Every string the agent or its model chose is cleaned.
func (s *Shown) Print(out io.Writer) {
	w := render.NewColumns(out)
	model := "-"
	if s.Model != nil {
		model = s.Model.Provider + "/" + s.Model.ID
	}
	ctx, window := "unknown until the next reply", "not recorded (the Stop hook says it)"
	if s.ContextTokens != nil {
		ctx = fmt.Sprintf("%d tokens", *s.ContextTokens)
	}
	if s.Window != nil {
		window = fmt.Sprintf("%d tokens", *s.Window)
	}
	for _, row := range [][2]string{
		{"session", s.Header.ID}, {"file", s.File}, {"started", dash(s.Header.Timestamp)}, {"cwd", dash(s.Header.CWD)},
		{"model", model},
		{"usage", fmt.Sprintf("input %d, output %d, cache read %d, cost none (Qwen Code records no prices)", s.Usage.Input, s.Usage.Output, s.Usage.CacheRead)},
		{"context", ctx}, {"window", window}, {"tools called", dash(strings.Join(s.Called, ", "))},
		{"entries", fmt.Sprintf("%d (%d lines skipped)", s.Entries, s.Skipped)},
	} {
		fmt.Fprintf(w, "%s\t%s\n", row[0], render.Clean(row[1]))
	}
	w.Flush()
	fmt.Fprintf(out, "\noutputs (%d)\n", len(s.Outputs))
	w = render.NewColumns(out)
	for _, o := range s.Outputs {
		repo := "-"
		if o.Repo != nil {
			repo = *o.Repo
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", o.Action, o.At.Format(time.RFC3339), render.Clean(o.Path), render.Clean(repo))
	}
	w.Flush()
	fmt.Fprintf(out, "\nrecent calls (%d, newest first)\n", len(s.Recent))
	w = render.NewColumns(out)
	for _, c := range s.Recent {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), render.Clean(c.Tool), dash(c.Action), c.Outcome)
	}
	w.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
