package render

import (
	"errors"
	"io"
	"strings"
	"testing"

	"jig/status"
)

func str(s string) *string { return &s }

// Flags that exclude each other are a usage error, each with its words.
func TestPrinterConflicts(t *testing.T) {
	n, neg := 10, -1
	for _, tc := range []struct {
		o    Output
		want string
	}{
		{Output{MaxWidth: &neg, Preset: str("tmux")}, "--max-width -1: want a positive number of cells"},
		{Output{Preset: str("nope")}, `--preset "nope": want one of tmux, wezterm, ansi, plain`},
		{Output{Preset: str("tmux"), JSON: true}, "--preset excludes --json, --jq and --format"},
		{Output{MaxWidth: &n}, "--max-width needs --preset or --format"},
		{Output{Shell: str("csh"), Preset: str("ansi")}, `--shell "csh": want one of bash, zsh, fish`},
		{Output{Shell: str("bash"), Preset: str("tmux")}, "--shell needs --preset ansi, --preset plain or --format"},
		{Output{Format: str("{{.state}}"), JQ: str(".state")}, "--format excludes --json and --jq"},
		{Output{JQ: str(".state")}, "--jq: this program has no jq"}, // no CompileJQ: refused, never ignored
		{Output{Format: str("{{.Model}}")}, "--format: .Model is a Go field name"},
	} {
		_, err := NewPrinter(tc.o)
		if !errors.Is(err, ErrUsage) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("NewPrinter(%+v) = %v, want a usage error %q", tc.o, err, tc.want)
		}
	}
}

// One printer for every command: what each asks for, from one status.
func TestPrinterStatus(t *testing.T) {
	s := fullStatus()
	data, _ := status.Encode(s)
	s, _ = status.Decode(data)
	w := 12
	for _, tc := range []struct {
		name string
		o    Output
		raw  bool
		want string
	}{
		{"JSON on a pipe", Output{}, true, string(data)},
		{"summary on a terminal", Output{Summary: true}, false, "busy  Claude Sonnet 4.5 · high  ctx 42%  $0.37  (s1, updated 5s ago)\n"},
		{"--json on a terminal", Output{Summary: true, JSON: true}, true, string(data)},
		{"--json, one line each", Output{JSON: true, Lines: true}, true, ""},
		{"--format", Output{Format: str("{{.state}}")}, true, "busy"},
		{"--format, one line each", Output{Format: str("{{.state}}"), Lines: true}, true, "busy\n"},
		{"--format fitted", Output{Format: str("{{.cwd}} {{.state}}"), MaxWidth: &w}, true, "/src/shop b…"},
		{"--preset plain", Output{Preset: str("plain")}, false, ""},
	} {
		p, err := NewPrinter(Output{Now: t0, JSON: tc.o.JSON, Format: tc.o.Format, Preset: tc.o.Preset,
			MaxWidth: tc.o.MaxWidth, Summary: tc.o.Summary, Lines: tc.o.Lines})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var b strings.Builder
		if err := p.Status(&b, s); err != nil || p.Raw() != tc.raw {
			t.Fatalf("%s: Status = %v, Raw %v", tc.name, err, p.Raw())
		}
		switch {
		case tc.o.Lines && tc.o.JSON:
			if got := b.String(); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, `{"schema":0,"session":"s1",`) {
				t.Errorf("%s: %q, want the JSON on one line", tc.name, got)
			}
		case tc.o.Preset != nil:
			if got := b.String(); !strings.Contains(got, "42%") {
				t.Errorf("%s: %q, want the segment", tc.name, got)
			}
		case b.String() != tc.want:
			t.Errorf("%s: %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}

// A list's array is streamed as written for JSON, and read whole by
// --format (and --jq, render/jq's TestPrinter).
func TestPrinterDocs(t *testing.T) {
	write := func(w io.Writer) error {
		_, err := io.WriteString(w, `[{"state":"busy"},{"state":"idle"}]`+"\n")
		return err
	}
	p, _ := NewPrinter(Output{})
	var b strings.Builder
	if err := p.Docs(&b, write); err != nil || b.String() != `[{"state":"busy"},{"state":"idle"}]`+"\n" {
		t.Fatalf("JSON: %q, %v", b.String(), err)
	}
	p, _ = NewPrinter(Output{Format: str("{{range .}}{{.state}} {{end}}")})
	b.Reset()
	if err := p.Docs(&b, write); err != nil || b.String() != "busy idle " {
		t.Fatalf("--format: %q, %v", b.String(), err)
	}
}

// Changes prints a status only when what it prints changed: the same
// state twice is one line, a new state another.
func TestPrinterChanges(t *testing.T) {
	p, err := NewPrinter(Output{Now: t0, Format: str("{{.state}}"), Lines: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	show := p.Changes(&b)
	for _, state := range []string{status.Busy, status.Busy, status.Idle, status.Idle, status.Busy} {
		s := fullStatus()
		s.State = state
		if err := show(s); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != "busy\nidle\nbusy\n" {
		t.Errorf("%q, want one line a change", b.String())
	}
}
