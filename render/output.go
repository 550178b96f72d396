package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"jig/status"
)

// ErrUsage marks output flags that cannot be used as given: two that
// exclude each other, a --jq or --format that does not parse. The command
// line is wrong.
var ErrUsage = errors.New("bad output flags")

// Output is what a command's output flags ask for, each nil when not
// given. Every command that prints a status, or a list of them, prints the
// same JSON: --json prints it, --jq filters it, --format renders a template
// over its keys; a status-line command adds --preset, --max-width and
// --shell.
type Output struct {
	JSON     bool
	JQ       *string
	Format   *string
	Preset   *string
	MaxWidth *int
	Shell    *string
	NoColor  bool // $NO_COLOR: presets without colours
	// RateLimits: the preset adds the rate limits the agent reports
	// (--rate-limits).
	RateLimits bool
	// Summary: asked for none of --json, --jq, --format and --preset, print
	// the one-line summary, not the JSON (stdout is a terminal, or the
	// command always does).
	Summary bool
	// Lines: one line for each document, its JSON compacted and what --jq
	// or --format make of it ended with a newline (a stream of changes).
	Lines bool
	Now   time.Time // the clock of the summary and the templates
	// Bounds bound a --jq or --format run (BoundsFrom); zero: DefaultBounds.
	Bounds Bounds
	// CompileJQ compiles --jq to run within the bounds: render/jq's Compile,
	// which links gojq. A program that leaves it nil refuses --jq.
	CompileJQ func(expr string, b Bounds) (Filter, error)
}

// Filter is a compiled --jq: it writes what it makes of the JSON document
// data to w, and nothing unless its whole run succeeds.
type Filter interface {
	Run(w io.Writer, data []byte) error
}

// Printer prints status documents as an Output asks, each whole or not at
// all: nothing reaches w unless it rendered.
type Printer struct {
	o      Output
	jq     Filter
	tmpl   *Format
	preset string
	width  int // --max-width of a --format result (a preset fits itself)
	shell  string
}

// NewPrinter checks the flags against each other and parses --jq or
// --format, before any search, so a bad one is a usage error even when
// nothing is found.
func NewPrinter(o Output) (*Printer, error) {
	if msg := o.conflict(); msg != "" {
		return nil, status.Mark(ErrUsage, errors.New(msg))
	}
	p := &Printer{o: o, preset: deref(o.Preset), shell: deref(o.Shell)}
	if o.MaxWidth != nil && o.Preset == nil {
		p.width = *o.MaxWidth
	}
	bounds := o.Bounds
	if bounds == (Bounds{}) {
		bounds = DefaultBounds
	}
	switch {
	case o.JQ != nil && o.CompileJQ == nil:
		return nil, status.Mark(ErrUsage, errors.New("--jq: this program has no jq"))
	case o.JQ != nil:
		q, err := o.CompileJQ(*o.JQ, bounds)
		if err != nil {
			return nil, status.Mark(ErrUsage, fmt.Errorf("--jq: %v", err))
		}
		p.jq = q
	case o.Format != nil:
		f, err := Parse(*o.Format)
		if err != nil {
			return nil, status.Mark(ErrUsage, fmt.Errorf("--format: %v", err))
		}
		p.tmpl = f.Within(bounds)
	}
	return p, nil
}

// conflict says what is wrong with the flags together, "" when nothing.
func (o Output) conflict() string {
	preset, shell := deref(o.Preset), deref(o.Shell)
	switch {
	case o.MaxWidth != nil && *o.MaxWidth < 0:
		return fmt.Sprintf("--max-width %d: want a positive number of cells", *o.MaxWidth)
	case o.Preset != nil && !IsPreset(preset):
		return fmt.Sprintf("--preset %q: want one of %s", preset, strings.Join(Presets, ", "))
	case o.Preset != nil && (o.Format != nil || o.JQ != nil || o.JSON):
		return "--preset excludes --json, --jq and --format"
	case o.MaxWidth != nil && o.Preset == nil && o.Format == nil:
		return "--max-width needs --preset or --format"
	case o.RateLimits && o.Preset == nil:
		return "--rate-limits needs --preset"
	case o.Shell != nil && !IsShell(shell):
		return fmt.Sprintf("--shell %q: want one of %s", shell, strings.Join(Shells, ", "))
	case o.Shell != nil && preset != PresetANSI && preset != PresetPlain && o.Format == nil:
		return "--shell needs --preset ansi, --preset plain or --format"
	case o.Format != nil && (o.JSON || o.JQ != nil):
		return "--format excludes --json and --jq"
	}
	return ""
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// Raw reports whether p prints a document's bytes (--json, --jq, --format,
// or the JSON when nothing else is asked for): a caller that has the bytes
// need not decode them.
func (p *Printer) Raw() bool {
	return p.preset == "" && (p.jq != nil || p.tmpl != nil || p.o.JSON || !p.o.Summary)
}

// Keys are the top-level members of a status file that Status reads to
// print it, nil when it reads the whole file (a summary, or the document).
func (p *Printer) Keys() []string {
	if p.preset != "" && !p.Raw() {
		return presetKeys
	}
	return nil
}

// Status prints s: its document when Raw (the file as read, unknown fields
// included), else its --preset segment or its summary.
func (p *Printer) Status(w io.Writer, s *status.Status) error {
	switch {
	case p.Raw():
		data := s.Raw()
		if data == nil {
			var err error
			if data, err = status.Encode(s); err != nil {
				return err
			}
		}
		return p.Doc(w, data)
	case p.preset != "":
		var b strings.Builder
		opt := PresetOptions{MaxWidth: deref(p.o.MaxWidth), NoColor: p.o.NoColor, RateLimits: p.o.RateLimits}
		if err := Preset(&b, p.preset, s, opt); err != nil {
			return fmt.Errorf("--preset: %v", err)
		}
		return p.line(w, b.String())
	}
	Summary(w, s, p.o.Now)
	return nil
}

// Changes is Status for a stream of one session's statuses (jig session
// watch): it prints one only when what it prints differs from the last
// printed, for a write seldom changes what --jq picks.
func (p *Printer) Changes(w io.Writer) func(*status.Status) error {
	var last []byte
	return func(s *status.Status) error {
		var b bytes.Buffer
		if err := p.Status(&b, s); err != nil || bytes.Equal(b.Bytes(), last) {
			return err
		}
		last = b.Bytes()
		_, err := w.Write(last)
		return err
	}
}

// Doc prints a JSON document: itself, or what --jq or --format make of it.
func (p *Printer) Doc(w io.Writer, data []byte) error {
	var b bytes.Buffer
	switch {
	case p.jq != nil:
		if err := p.jq.Run(&b, data); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
	case p.tmpl != nil:
		if err := Execute(&b, p.tmpl, data, p.o.Now); err != nil {
			return fmt.Errorf("--format: %w", err)
		}
	case p.o.Lines:
		if err := json.Compact(&b, data); err != nil {
			return err
		}
		return p.line(w, b.String())
	default:
		return writeDoc(w, data)
	}
	return p.line(w, b.String())
}

// Docs prints the document write makes (a list's array): as it is
// written when p prints JSON, else whole, through --jq or --format.
func (p *Printer) Docs(w io.Writer, write func(io.Writer) error) error {
	if p.jq == nil && p.tmpl == nil {
		return write(w)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return p.Doc(w, b.Bytes())
}

// line prints a rendered line: fitted to --max-width without breaking a
// style, marked for --shell, and ended with a newline for Lines.
func (p *Printer) line(w io.Writer, text string) error {
	text, nl := strings.CutSuffix(text, "\n")
	if p.width > 0 {
		text = TruncateStyled(text, p.width)
	}
	if nl || p.o.Lines && text != "" {
		text += "\n"
	}
	_, err := io.WriteString(w, ForShell(text, p.shell)) // a prompt piece, with no newline
	return err
}

// writeDoc prints a document and ends it with a newline if it has none.
func writeDoc(w io.Writer, data []byte) error {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	_, err := w.Write(data)
	return err
}
