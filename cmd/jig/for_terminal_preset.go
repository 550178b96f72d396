package main

import (
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
	}
}

// lineOutputFor is outputFor plus the status-line presets: --preset picks
// one, --max-width fits a preset or a --format output to a width.
func (e *env) lineOutputFor(c *cli.Context) (func(*status.Status) error, error) {
	preset, width := c.String("preset"), c.Int("max-width")
	switch {
	case width < 0:
		return nil, usageError(c, "--max-width %d: want a positive number of cells", width)
	case c.IsSet("preset") && !render.IsPreset(preset):
		return nil, usageError(c, "--preset %q: want one of %s", preset, strings.Join(render.Presets, ", "))
	case c.IsSet("preset") && (c.IsSet("format") || c.Bool("json")):
		return nil, usageError(c, "--preset excludes --json and --format")
	case c.IsSet("max-width") && !c.IsSet("preset") && !c.IsSet("format"):
		return nil, usageError(c, "--max-width needs --preset or --format")
	}
	if c.IsSet("preset") {
		opt := render.PresetOptions{MaxWidth: width, NoColor: e.getenv("NO_COLOR") != ""}
		return func(s *status.Status) error {
			if err := render.Preset(e.stdout, preset, s, opt); err != nil {
				return errorf(c, exitFailed, "--preset: %v", err)
			}
			return nil
		}, nil
	}
	if width > 0 {
		t, err := render.Parse(c.String("format"))
		if err != nil {
			return nil, usageError(c, "--format: %v", err)
		}
		now := e.now()
		return func(s *status.Status) error {
			var b strings.Builder
			if err := render.Execute(&b, t, s, now); err != nil {
				return errorf(c, exitFailed, "--format: %v", err)
			}
			text, nl := strings.CutSuffix(b.String(), "\n")
			text = render.TruncateStyled(text, width)
			if nl {
				text += "\n"
			}
			_, err := e.stdout.Write([]byte(text))
			return err
		}, nil
	}
	return e.outputFor(c)
}
