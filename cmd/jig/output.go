package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/render/jq"
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

var helperNames = []string{"json", "short", "percent", "cost", "ago", "until", "glyph", "waits", "limits", "level", "trunc", "tmux", "clean", "width"}

// presetFlags are the status-line flags of for-terminal and Claude's
// statusline.
func presetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "preset", Usage: "print a status-line segment for `HOST`: " + strings.Join(render.Presets, ", ")},
		&cli.IntFlag{Name: "max-width", Usage: "fit the segment (or --format output) in `N` cells (0: no limit)"},
		&cli.BoolFlag{Name: "rate-limits", Usage: "add the rate limits the agent reports to the --preset segment (5h 42% 7d 18%)"},
		&cli.StringFlag{Name: "shell", Usage: "mark the escape sequences of --preset ansi (or --format) for a `SHELL` prompt: " + strings.Join(render.Shells, ", ")},
	}
}

// printer is how the command prints: its output flags laid over what the
// command itself decides in o (Summary, Lines).
func (e *env) printer(c *cli.Context, o render.Output) (*render.Printer, error) {
	set := c.LocalFlagNames() // once: IsSet of a flag not given runs a regexp over every flag's names
	o.JSON, o.JQ, o.Format, o.Preset, o.Shell = c.Bool("json"), given(c, set, "jq"), given(c, set, "format"), given(c, set, "preset"), given(c, set, "shell")
	if slices.Contains(set, "max-width") {
		n := c.Int("max-width")
		o.MaxWidth = &n
	}
	o.RateLimits, o.CompileJQ = c.Bool("rate-limits"), jq.Compile // only jig has --jq
	return e.Printer(o)
}

// given is a string flag's value, nil when it is not among the flags set.
func given(c *cli.Context, set []string, name string) *string {
	if !slices.Contains(set, name) {
		return nil
	}
	v := c.String(name)
	return &v
}

// writeIndented prints v as indented JSON, for the commands that print
// what they read of an agent's files.
// printShown prints v as indented JSON with --json, else draws it.
func printShown(c *cli.Context, w io.Writer, v any, draw func()) error {
	if c.Bool("json") {
		return writeIndented(w, v)
	}
	draw()
	return nil
}

func writeIndented(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
