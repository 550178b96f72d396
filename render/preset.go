package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"jig/status"
)

// The status-line presets: one short segment for a host's bar. Each is a
// whole segment or nothing; agent-supplied text is cleaned of control
// characters so it cannot move a cursor or end a bar early.
const (
	PresetTmux    = "tmux"    // #[fg=…] styles, '#' doubled, ends with #[default]
	PresetWezTerm = "wezterm" // one JSON list of wezterm.format items
	PresetANSI    = "ansi"    // SGR escape codes, none under NO_COLOR
	PresetPlain   = "plain"   // text only
	PresetGlyph   = "glyph"   // the state's glyph alone, one cell, no style
)

// Presets lists the preset names, for help and errors.
var Presets = []string{PresetTmux, PresetWezTerm, PresetANSI, PresetPlain, PresetGlyph}

// IsPreset reports whether name is a preset.
func IsPreset(name string) bool {
	for _, p := range Presets {
		if p == name {
			return true
		}
	}
	return false
}

// The state glyphs of the segment (and GlyphAttention).
const (
	GlyphBusy = "●"
	GlyphIdle = "○"
)

// Context thresholds: under LevelWarn percent is fine, under LevelHigh a
// warning, else high.
const (
	LevelWarn = 50
	LevelHigh = 80
)

// Levels are the semantic colours of a segment part; each preset maps them
// to its host's colours.
const (
	levelNone      = ""
	levelBusy      = "busy"
	levelIdle      = "idle"
	levelAttention = "attention"
	levelOK        = "ok"
	levelWarn      = "warn"
	levelHigh      = "high"
)

// Level names how full a context is: "ok", "warn" or "high", "" when unknown.
func Level(p *float64) string {
	switch {
	case p == nil:
		return levelNone
	case *p < LevelWarn:
		return levelOK
	case *p < LevelHigh:
		return levelWarn
	}
	return levelHigh
}

// Glyph is the state's glyph: ● busy, ○ idle.
func Glyph(state string) string {
	if state == status.Busy {
		return GlyphBusy
	}
	return GlyphIdle
}

// part is one piece of the segment. Parts with a higher drop go first when
// the segment must fit a width; the glyph (drop 0) stays to the end.
type part struct {
	text    string
	level   string
	drop    int
	shorten bool // may be shortened with an ellipsis before it is dropped
}

// presetKeys are the members of a status file a preset reads (segment's
// and StateGlyph's fields, by their JSON names): a status line decodes
// these of a 24 KB file. TestPresetKeysPrintTheSame holds them to the file
// decoded whole.
var presetKeys = []string{"state", "attention", "model", "thinking", "context", "usage", "rateLimits"}

// segment is the default segment's parts, in display order: state glyph,
// what the session waits for, short model, thinking level unless off,
// context percent, cost, and with opt.RateLimits the rate limits. Unknown
// values are left out rather than shown as "?".
func segment(s *status.Status, opt PresetOptions) []part {
	parts := []part{{text: StateGlyph(s), level: stateLevel(s)}}
	if a := s.Attention; a != nil {
		parts = append(parts, part{text: attentionWord(a), level: levelAttention, drop: 1, shorten: true})
	}
	m := ShortModel(s.Model)
	if m == "" && s.Model != nil {
		m = s.Model.Name
	}
	if m := Clean(m); m != "" {
		parts = append(parts, part{text: m, drop: 3, shorten: true})
	}
	if s.Thinking != nil && *s.Thinking != "" && *s.Thinking != "off" {
		parts = append(parts, part{text: Clean(*s.Thinking), drop: 7})
	}
	if s.Context.Percent != nil {
		parts = append(parts, part{text: Percent(s.Context.Percent), level: Level(s.Context.Percent), drop: 2})
	}
	if s.Usage.Cost != nil {
		parts = append(parts, part{text: Money(s.Usage.Cost), drop: 4})
	}
	if opt.RateLimits {
		for i, w := range RateWindows(s.RateLimits) {
			parts = append(parts, part{text: w.Text(), level: Level(&w.UsedPercent), drop: 5 + i}) // the weekly one first
		}
	}
	return parts
}

func stateLevel(s *status.Status) string {
	switch {
	case s.Attention != nil:
		return levelAttention
	case s.State == status.Busy:
		return levelBusy
	}
	return levelIdle
}

// PresetOptions shape a preset's output.
type PresetOptions struct {
	MaxWidth   int  // cells the segment may take; 0 means no limit
	NoColor    bool // ansi: no escape codes (NO_COLOR)
	RateLimits bool // add the rate limits the agent reports: 5h 42% 7d 18%
}

// Preset writes s as the named preset's segment and a newline. It writes
// nothing when the name is unknown.
func Preset(w io.Writer, name string, s *status.Status, opt PresetOptions) error {
	if !IsPreset(name) {
		return fmt.Errorf("unknown preset %q (want %s)", name, strings.Join(Presets, ", "))
	}
	parts := fit(segment(s, opt), opt.MaxWidth)
	var out string
	switch name {
	case PresetGlyph:
		out = StateGlyph(s)
	case PresetTmux:
		out = tmuxSegment(parts)
	case PresetWezTerm:
		out = wezTermSegment(parts)
	case PresetANSI:
		out = ansiSegment(parts, !opt.NoColor)
	case PresetPlain:
		out = plainSegment(parts)
	}
	_, err := io.WriteString(w, out+"\n")
	return err
}

// fit drops and shortens parts until the segment, parts joined by single
// spaces, takes at most max cells.
func fit(parts []part, max int) []part {
	if max <= 0 {
		return parts
	}
	for width(parts) > max {
		worst := 0
		for i, p := range parts {
			if p.drop > parts[worst].drop {
				worst = i
			}
		}
		p := parts[worst]
		if p.drop == 0 { // only the glyph is left
			if Width(p.text) > max {
				return nil
			}
			break
		}
		if p.shorten {
			// Keep at least three cells of the text and its ellipsis.
			over := width(parts) - max
			if w := Width(p.text); w-over >= 4 {
				parts[worst].text = Truncate(p.text, w-over)
				continue
			}
		}
		parts = append(parts[:worst:worst], parts[worst+1:]...)
	}
	return parts
}

func width(parts []part) int {
	n := 0
	for i, p := range parts {
		if i > 0 {
			n++
		}
		n += Width(p.text)
	}
	return n
}

// tmuxColours are, per level, a tmux user option (@jig-busy-colour,
// @jig-attention-colour, @jig-ok-colour, @jig-warn-colour, @jig-high-colour)
// and the colour used while it is unset: tmux expands the #{…} in a status
// job's output, so `set -g @jig-ok-colour green` recolours the segment with
// nothing rerun. The defaults read on tmux's default green bar as well as
// on a dark one: green or yellow text vanishes on the green.
var tmuxColours = map[string]string{
	levelBusy: tmuxColour("busy", "blue"), levelIdle: "", levelAttention: tmuxColour("attention", "colour208"),
	levelOK: tmuxColour("ok", "default"), levelWarn: tmuxColour("warn", "magenta"), levelHigh: tmuxColour("high", "red"),
}

func tmuxColour(level, fallback string) string {
	opt := "@jig-" + level + "-colour"
	return "#{?" + opt + ",#{" + opt + "}," + fallback + "}"
}

// tmuxSegment styles with #[fg=…], doubles '#' in text so tmux does not
// expand it as a format, and always ends with #[default] so no style leaks
// into what follows on the bar.
func tmuxSegment(parts []part) string {
	if len(parts) == 0 {
		return ""
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		text := TmuxEscape(p.text)
		if c := tmuxColours[p.level]; c != "" {
			fmt.Fprintf(&b, "#[fg=%s]%s#[fg=default]", c, text)
		} else {
			b.WriteString(text)
		}
	}
	b.WriteString("#[default]")
	return b.String()
}

var ansiColours = map[string]string{
	levelBusy: "36", levelIdle: "", levelAttention: "35", levelOK: "32", levelWarn: "33", levelHigh: "31",
}

func ansiSegment(parts []part, colour bool) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		if c := ansiColours[p.level]; colour && c != "" {
			fmt.Fprintf(&b, "\x1b[%sm%s\x1b[39m", c, p.text)
		} else {
			b.WriteString(p.text)
		}
	}
	if colour && len(parts) > 0 {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

func plainSegment(parts []part) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.text
	}
	return strings.Join(texts, " ")
}

// wezTermColours are AnsiColor names, so the user's colour scheme decides
// the actual colours.
var wezTermColours = map[string]string{
	levelBusy: "Teal", levelIdle: "", levelAttention: "Purple", levelOK: "Green", levelWarn: "Olive", levelHigh: "Maroon",
}

// wezTermSegment is one JSON list of wezterm.format items, e.g.
// [{"Foreground":{"AnsiColor":"Teal"}},{"Text":"●"},"ResetAttributes",…]:
// Lua passes it through wezterm.json_parse to wezterm.format. The list is
// empty when nothing fits.
func wezTermSegment(parts []part) string {
	items := []any{}
	for i, p := range parts {
		if i > 0 {
			items = append(items, map[string]string{"Text": " "})
		}
		if c := wezTermColours[p.level]; c != "" {
			items = append(items, map[string]any{"Foreground": map[string]string{"AnsiColor": c}},
				map[string]string{"Text": p.text}, "ResetAttributes")
		} else {
			items = append(items, map[string]string{"Text": p.text})
		}
	}
	data, _ := json.Marshal(items) // strings and maps only: cannot fail
	return string(data)
}

// TmuxEscape doubles '#' so tmux shows it instead of expanding a format.
func TmuxEscape(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}
