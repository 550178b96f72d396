package render

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"jig/status"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func ptr[T any](v T) *T { return &v }

// presetCases are the statuses the golden files show, one file per case.
var presetCases = map[string]*status.Status{
	"busy_full": {
		State:    status.Busy,
		Model:    &status.Model{Provider: "anthropic", ID: "claude-sonnet-4-5-20250929", Name: "Claude Sonnet 4.5"},
		Thinking: ptr("high"),
		Context:  status.Context{Percent: ptr(42.4)},
		Usage:    status.Usage{Cost: ptr(1.234)},
	},
	"idle_warn_thinking_off": {
		State:    status.Idle,
		Model:    &status.Model{Provider: "openai", ID: "openai/gpt-5", Name: "GPT-5"},
		Thinking: ptr("off"),
		Context:  status.Context{Percent: ptr(65.0)},
		Usage:    status.Usage{Cost: ptr(12.5)},
	},
	"busy_high_no_cost": {
		State:   status.Busy,
		Model:   &status.Model{ID: "claude-opus-4-1"},
		Context: status.Context{Percent: ptr(91.2)},
	},
	"idle_bare":   {State: status.Idle},
	"model_no_id": {State: status.Idle, Model: &status.Model{Name: "Local Llama"}},
	"hostile_text": {
		State:    status.Busy,
		Model:    &status.Model{ID: "evil#[fg=red]\x1b[2J\nmodel"},
		Thinking: ptr("x#{pane_id}"),
		Context:  status.Context{Percent: ptr(10.0)},
	},
	"wide_model": {
		State:   status.Idle,
		Model:   &status.Model{ID: "模型大四号"},
		Context: status.Context{Percent: ptr(80.0)},
		Usage:   status.Usage{Cost: ptr(0.5)},
	},
	"waits_permission": {
		State:     status.Busy,
		Attention: &status.Attention{Kind: status.AttentionPermission, Tool: "Bash", Since: time.Unix(1, 0)},
		Model:     &status.Model{ID: "claude-sonnet-4-5"},
		Context:   status.Context{Percent: ptr(42.0)},
		Usage:     status.Usage{Cost: ptr(1.5)},
	},
	"waits_question_long_tool": {
		State:     status.Busy,
		Attention: &status.Attention{Kind: status.AttentionQuestion, Tool: "AskUserQuestion", Since: time.Unix(1, 0)},
		Model:     &status.Model{ID: "claude-opus-4-1"},
	},
	"stopped_error": {
		State:     status.Idle,
		Attention: &status.Attention{Kind: status.AttentionError, Since: time.Unix(1, 0)},
		Model:     &status.Model{ID: "gpt-5"},
		Context:   status.Context{Percent: ptr(12.0)},
	},
	"limits_both": {
		State:      status.Busy,
		Model:      &status.Model{ID: "claude-sonnet-4-5"},
		Context:    status.Context{Percent: ptr(42.0)},
		Usage:      status.Usage{Cost: ptr(1.5)},
		RateLimits: &status.RateLimits{FiveHour: &status.RateLimit{UsedPercent: 42}, Weekly: &status.RateLimit{UsedPercent: 85}},
	},
	"limits_weekly_only": {
		State:      status.Idle,
		Thinking:   ptr("high"),
		RateLimits: &status.RateLimits{Weekly: &status.RateLimit{UsedPercent: 55.5}},
	},
}

// presetOptions are the options a case is rendered with besides its width:
// the limits_ cases ask for the rate limits.
func presetOptions(name string, width int) PresetOptions {
	return PresetOptions{MaxWidth: width, RateLimits: strings.HasPrefix(name, "limits_")}
}

// widths are the --max-width values every case is rendered at.
var widths = []int{0, 24, 16, 12, 8, 5, 3, 1}

func TestPresetGolden(t *testing.T) {
	for name, s := range presetCases {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			for _, preset := range Presets {
				for _, w := range widths {
					var out bytes.Buffer
					if err := Preset(&out, preset, s, presetOptions(name, w)); err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&got, "%-7s w=%-2d %q\n", preset, w, out.String())
				}
			}
			var out bytes.Buffer
			opt := presetOptions(name, 0)
			opt.NoColor = true
			if err := Preset(&out, PresetANSI, s, opt); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&got, "ansi NO_COLOR %q\n", out.String())
			golden := filepath.Join("testdata", "preset", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./render -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("output differs from %s (go test ./render -update rewrites it):\n got:\n%s\nwant:\n%s", golden, got.Bytes(), want)
			}
		})
	}
}

// Whatever the width, the shown text fits it, and a tmux segment that shows
// anything ends with a style reset.
func TestPresetFitsWidth(t *testing.T) {
	for name, s := range presetCases {
		for w := 1; w <= 40; w++ {
			for _, preset := range []string{PresetPlain, PresetTmux, PresetANSI, PresetGlyph} {
				var out bytes.Buffer
				if err := Preset(&out, preset, s, presetOptions(name, w)); err != nil {
					t.Fatal(err)
				}
				line := strings.TrimSuffix(out.String(), "\n")
				if strings.Contains(line, "\n") {
					t.Errorf("%s %s w=%d: more than one line: %q", name, preset, w, line)
				}
				if got := styledWidth(line); got > w {
					t.Errorf("%s %s w=%d: %d cells: %q", name, preset, w, got, line)
				}
				if preset == PresetTmux && line != "" && !strings.HasSuffix(line, "#[default]") {
					t.Errorf("%s w=%d: tmux segment without a final reset: %q", name, w, line)
				}
			}
		}
	}
}

func TestPresetUnknown(t *testing.T) {
	var out bytes.Buffer
	err := Preset(&out, "powerline", &status.Status{}, PresetOptions{})
	if err == nil || out.Len() != 0 {
		t.Fatalf("unknown preset: err %v, output %q", err, out.String())
	}
}

func TestLevel(t *testing.T) {
	for _, c := range []struct {
		p    *float64
		want string
	}{
		{nil, ""}, {ptr(0.0), "ok"}, {ptr(49.9), "ok"}, {ptr(50.0), "warn"},
		{ptr(79.9), "warn"}, {ptr(80.0), "high"}, {ptr(120.0), "high"},
	} {
		if got := Level(c.p); got != c.want {
			t.Errorf("Level(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"sonnet", 10, "sonnet"},
		{"sonnet", 6, "sonnet"},
		{"sonnet", 5, "sonn…"},
		{"sonnet", 1, "…"},
		{"sonnet", 0, ""},
		{"模型大四", 5, "模型…"}, // never half a wide character
		{"模型大四", 4, "模…"},
		{"e\u0301te", 2, "e\u0301…"}, // a combining mark stays with its letter
	} {
		if got := Truncate(c.in, c.n); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestTruncateStyled(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"#[fg=green]42%#[default]", 3, "#[fg=green]42%#[default]"},
		{"#[fg=green]42% ##1#[default]", 4, "#[fg=green]42%…#[default]"},
		{"a ##b c", 4, "a ##…"},
		{"\x1b[32m42%\x1b[39m sonnet", 5, "\x1b[32m42%\x1b[39m …\x1b[0m"},
		{"plain text", 5, "plai…"},
	} {
		if got := TruncateStyled(c.in, c.n); got != c.want {
			t.Errorf("TruncateStyled(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestShortModel(t *testing.T) {
	for id, want := range map[string]string{
		"claude-sonnet-4-5-20250929": "claude-sonnet-4-5",
		"anthropic/claude-opus-4-1":  "claude-opus-4-1",
		"gpt-5":                      "gpt-5",
		"model-2025":                 "model-2025",
		"x-2025092a":                 "x-2025092a",
	} {
		if got := ShortModel(&status.Model{ID: id}); got != want {
			t.Errorf("ShortModel(%q) = %q, want %q", id, got, want)
		}
	}
}

// The status-line helpers are callable from a --format template.
func TestFuncsStatusLineHelpers(t *testing.T) {
	s := &status.Status{State: status.Busy, Model: &status.Model{ID: "a#b"}, Context: status.Context{Percent: ptr(55.0)}}
	var out bytes.Buffer
	err := Template(&out, `{{glyph .state}} {{level .context.percent}} {{tmux (short .model)}} {{trunc 3 "sonnet"}} {{width "模型"}} {{clean "a\tb"}}`, encode(t, s), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if want := "● warn a##b so… 4 a?b"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// A status line renders one segment per refresh; this is its cost without
// the process start and the file read.
func BenchmarkPreset(b *testing.B) {
	s := presetCases["busy_full"]
	for _, preset := range Presets {
		b.Run(preset, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				Preset(&out, preset, s, PresetOptions{MaxWidth: 40})
			}
		})
	}
}

// Whatever an agent writes as its model and thinking level, a preset is one
// line of valid UTF-8 that fits the width, has no control character other
// than its own escapes, and a tmux segment ends with a reset.
func FuzzPreset(f *testing.F) {
	f.Add("claude-sonnet-4-5", "high", 42.0, 12)
	f.Add("evil#[fg=red]\x1b[2J\nmodel", "x#{pane_id}", 99.0, 5)
	f.Add("模型大四号", "", 80.0, 3)
	f.Fuzz(func(t *testing.T, model, thinking string, percent float64, w int) {
		if w < 0 || w > 200 {
			return
		}
		s := &status.Status{State: status.Busy, Model: &status.Model{ID: model}, Thinking: &thinking,
			Context: status.Context{Percent: &percent}, Usage: status.Usage{Cost: &percent}}
		for _, preset := range []string{PresetTmux, PresetANSI, PresetPlain} {
			var out bytes.Buffer
			if err := Preset(&out, preset, s, PresetOptions{MaxWidth: w}); err != nil {
				t.Fatal(err)
			}
			line, ok := strings.CutSuffix(out.String(), "\n")
			if !ok || strings.ContainsAny(line, "\n\r") || !utf8.ValidString(line) {
				t.Fatalf("%s: not one clean line: %q", preset, out.String())
			}
			if w > 0 && styledWidth(line) > w {
				t.Fatalf("%s w=%d: %d cells: %q", preset, w, styledWidth(line), line)
			}
			if strings.ContainsFunc(strings.ReplaceAll(line, "\x1b[", ""), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("%s: a control character got through: %q", preset, line)
			}
			if preset == PresetTmux && line != "" && !strings.HasSuffix(line, "#[default]") {
				t.Fatalf("tmux segment without a final reset: %q", line)
			}
		}
	})
}

// The attention and rate-limit helpers read the file's JSON as --format
// sees it; a null attention or rate limits prints nothing.
func TestFuncsAttentionHelpers(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	resets := now.Add(90 * time.Minute)
	waiting := &status.Status{State: status.Busy,
		Attention:  &status.Attention{Kind: status.AttentionPermission, Tool: "Bash", Since: now.Add(-2 * time.Minute)},
		RateLimits: &status.RateLimits{FiveHour: &status.RateLimit{UsedPercent: 42, ResetsAt: &resets}, Weekly: &status.RateLimit{UsedPercent: 7.5}}}
	const tmpl = `{{glyph .state .attention}} [{{waits .attention}}] {{with .attention}}{{ago .since}}{{end}} [{{limits .rateLimits}}] {{with .rateLimits}}{{until .fiveHour.resetsAt}}{{end}}`
	for _, c := range []struct {
		s    *status.Status
		want string
	}{
		{waiting, "◐ [Bash waits for approval] 2m [5h 42% 7d 8%] 1h"},
		{&status.Status{State: status.Busy}, "● []  [] "},
		{&status.Status{State: status.Idle, Attention: &status.Attention{Kind: status.AttentionError, Since: now}}, "◐ [stopped on an error] 0s [] "},
		{&status.Status{State: status.Idle, Attention: &status.Attention{Kind: status.AttentionQuestion, Since: now}}, "◐ [a question waits for an answer] 0s [] "},
	} {
		var out bytes.Buffer
		if err := Template(&out, tmpl, encode(t, c.s), now); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("got %q, want %q", out.String(), c.want)
		}
	}
	for _, bad := range []string{`{{waits "x"}}`, `{{limits 3}}`, `{{until 3}}`, `{{limits .state}}`} {
		if err := Template(&bytes.Buffer{}, bad, encode(t, waiting), now); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// A preset prints from the members presetKeys name what it prints from the
// file decoded whole: a field segment starts to read must join them.
func TestPresetKeysPrintTheSame(t *testing.T) {
	waiting := fullStatus()
	waiting.Attention = &status.Attention{Kind: status.AttentionPermission, Tool: "bash"}
	limited := fullStatus()
	limited.State = status.Idle
	limited.RateLimits = &status.RateLimits{FiveHour: &status.RateLimit{UsedPercent: 42}, Weekly: &status.RateLimit{UsedPercent: 91}}
	for _, s := range []*status.Status{fullStatus(), waiting, limited, {State: status.Idle}} {
		data := encode(t, s)
		whole, err := status.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		some, err := status.DecodeMembers(data, presetKeys)
		if err != nil {
			t.Fatal(err)
		}
		for _, preset := range Presets {
			for _, opt := range []PresetOptions{{}, {RateLimits: true}, {MaxWidth: 12, NoColor: true}} {
				var got, want strings.Builder
				Preset(&want, preset, whole, opt)
				Preset(&got, preset, some, opt)
				if got.String() != want.String() {
					t.Errorf("%s %+v: from the members %q, from the whole file %q", preset, opt, got.String(), want.String())
				}
			}
		}
	}
}
