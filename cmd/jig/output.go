package main

import (
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

// Every command that prints a status, or a list of them, prints the same
// JSON and takes the same three flags over it: --json prints it, --jq
// filters it (gojq, as gh does), --format renders a template over its keys.
func docFlags(what string) []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print " + what + " as JSON even on a terminal"},
		&cli.StringFlag{Name: "jq", Usage: "print what the jq `EXPR` (gojq) makes of the JSON: strings as text, one result a line"},
		&cli.StringFlag{Name: "format", Usage: "render a Go text/template `TEMPLATE` over the JSON's keys ({{.model.id}}); helpers: " + strings.Join(helperNames, ", ")},
	}
}

var helperNames = []string{"json", "short", "percent", "cost", "ago", "glyph", "level", "trunc", "tmux", "clean", "width"}

// docOutput writes what --jq or --format make of a JSON document.
type docOutput func(w io.Writer, data []byte) error

// docOutputFor reads --jq and --format; nil when neither is given. The
// expression or template is parsed here, before any search, so a bad one is
// a usage error even when nothing is found.
func (e *env) docOutputFor(c *cli.Context) (docOutput, error) {
	switch {
	case c.IsSet("format") && (c.Bool("json") || c.IsSet("jq")):
		return nil, usageError(c, "--format excludes --json and --jq")
	}
	bounds, err := render.BoundsFrom(e.getenv)
	if err != nil && (c.IsSet("jq") || c.IsSet("format")) {
		return nil, usageError(c, "%v", err)
	}
	switch {
	case c.IsSet("jq"):
		code, err := render.ParseJQ(c.String("jq"))
		if err != nil {
			return nil, usageError(c, "--jq: %v", err)
		}
		code = code.Within(bounds)
		return func(w io.Writer, data []byte) error {
			if err := render.JQ(w, code, data); err != nil {
				return errorf(c, renderExitCode(err), "--jq: %v", err)
			}
			return nil
		}, nil
	case c.IsSet("format"):
		t, err := render.Parse(c.String("format"))
		if err != nil {
			return nil, usageError(c, "--format: %v", err)
		}
		t = t.Within(bounds)
		now := e.now()
		return func(w io.Writer, data []byte) error {
			if err := render.Execute(w, t, data, now); err != nil {
				return errorf(c, renderExitCode(err), "--format: %v", err)
			}
			return nil
		}, nil
	}
	return nil, nil
}

// renderExitCode is exitBadInput for an expression or template that went
// past its bounds (render.BoundError), else exitFailed.
func renderExitCode(err error) int {
	if errors.As(err, new(*render.BoundError)) {
		return exitBadInput
	}
	return exitFailed
}

// outputFor picks how a command that prints one session prints it: --jq,
// --format, JSON (--json, or stdout is not a terminal), else the summary.
// Nothing reaches stdout unless it rendered whole.
func (e *env) outputFor(c *cli.Context) (func(*status.Status) error, error) {
	doc, err := e.docOutputFor(c)
	switch {
	case err != nil:
		return nil, err
	case doc != nil:
		return func(s *status.Status) error {
			data, err := statusJSON(s)
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			return doc(e.stdout, data)
		}, nil
	case e.wantsJSON(c):
		return func(s *status.Status) error { return writeJSON(e.stdout, s) }, nil
	}
	now := e.now()
	return func(s *status.Status) error {
		render.Summary(e.stdout, s, now)
		return nil
	}, nil
}

// wantsJSON: --json, or stdout is not a terminal and no other output
// (--jq, --format, --preset) is asked for.
func (e *env) wantsJSON(c *cli.Context) bool {
	for _, other := range []string{"jq", "format", "preset"} {
		if c.IsSet(other) {
			return false
		}
	}
	return c.Bool("json") || !e.stdoutTTY
}

// statusJSON is a status as its file holds it, unknown fields included.
func statusJSON(s *status.Status) ([]byte, error) {
	if data := s.Raw(); data != nil {
		return data, nil
	}
	return status.Encode(s)
}

// writeJSON prints a status as its file holds it.
func writeJSON(w io.Writer, s *status.Status) error {
	data, err := statusJSON(s)
	if err != nil {
		return err
	}
	return writeDoc(w, data)
}

// writeDoc prints a document and ends it with a newline if it has none.
func writeDoc(w io.Writer, data []byte) error {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	_, err := w.Write(data)
	return err
}
