package main

import (
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
)

// presetFlags are for-terminal's status-line flags.
func presetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "preset", Usage: "print a status-line segment for `HOST`: " + strings.Join(render.Presets, ", ")},
		&cli.IntFlag{Name: "max-width", Usage: "fit the segment (or --format output) in `N` cells (0: no limit)"},
		&cli.BoolFlag{Name: "rate-limits", Usage: "add the rate limits the agent reports to the --preset segment (5h 42% 7d 18%)"},
		&cli.StringFlag{Name: "shell", Usage: "mark the escape sequences of --preset ansi (or --format) for a `SHELL` prompt: " + strings.Join(render.Shells, ", ")},
	}
}

// statusLine is what the status-line flags ask of a rendered line.
type statusLine struct {
	preset string
	opt    render.PresetOptions
	width  int    // --max-width for a --format output (a preset fits itself)
	shell  string // --shell
}

// statusLineFor checks the status-line flags against each other and the
// output flags.
func (e *env) statusLineFor(c *cli.Context) (*statusLine, error) {
	preset, width, shell := c.String("preset"), c.Int("max-width"), c.String("shell")
	switch {
	case width < 0:
		return nil, usageError(c, "--max-width %d: want a positive number of cells", width)
	case c.IsSet("preset") && !render.IsPreset(preset):
		return nil, usageError(c, "--preset %q: want one of %s", preset, strings.Join(render.Presets, ", "))
	case c.IsSet("preset") && (c.IsSet("format") || c.IsSet("jq") || c.Bool("json")):
		return nil, usageError(c, "--preset excludes --json, --jq and --format")
	case c.IsSet("max-width") && !c.IsSet("preset") && !c.IsSet("format"):
		return nil, usageError(c, "--max-width needs --preset or --format")
	case c.Bool("rate-limits") && !c.IsSet("preset"):
		return nil, usageError(c, "--rate-limits needs --preset")
	case c.IsSet("shell") && !render.IsShell(shell):
		return nil, usageError(c, "--shell %q: want one of %s", shell, strings.Join(render.Shells, ", "))
	case c.IsSet("shell") && !(preset == render.PresetANSI || preset == render.PresetPlain || c.IsSet("format")):
		return nil, usageError(c, "--shell needs --preset ansi, --preset plain or --format")
	}
	l := &statusLine{preset: preset, shell: shell,
		opt: render.PresetOptions{MaxWidth: width, NoColor: e.getenv("NO_COLOR") != "", RateLimits: c.Bool("rate-limits")}}
	if preset == "" {
		l.width = width
	}
	return l, nil
}

// write prints a rendered line: fitted to --max-width without breaking a
// style, then marked for --shell.
func (l *statusLine) write(w io.Writer, text string) error {
	text, nl := strings.CutSuffix(text, "\n")
	if l.width > 0 {
		text = render.TruncateStyled(text, l.width)
	}
	text = render.ForShell(text, l.shell)
	if nl {
		text += "\n"
	}
	_, err := io.WriteString(w, text)
	return err
}

// lineOutputFor is how a command that draws one status line prints a
// status: --preset, or what outputFor prints, a --jq or --format result
// fitted (--max-width) and marked (--shell) as for-terminal does.
func (e *env) lineOutputFor(c *cli.Context) (func(*status.Status) error, error) {
	line, err := e.statusLineFor(c)
	if err != nil {
		return nil, err
	}
	if line.preset != "" {
		return func(s *status.Status) error {
			var b strings.Builder
			if err := render.Preset(&b, line.preset, s, line.opt); err != nil {
				return errorf(c, exitFailed, "--preset: %v", err)
			}
			return line.write(e.stdout, b.String())
		}, nil
	}
	doc, err := e.docOutputFor(c)
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return e.outputFor(c)
	}
	return func(s *status.Status) error {
		data, err := statusJSON(s)
		if err != nil {
			return errorf(c, exitFailed, "%v", err)
		}
		var b strings.Builder
		if err := doc(&b, data); err != nil {
			return err
		}
		return line.write(e.stdout, b.String())
	}, nil
}
