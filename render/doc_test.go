package render

import (
	"errors"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// Templates read the JSON keys the file and --json show, with the helpers
// json, short, percent, cost and ago.
func TestTemplateJSONKeys(t *testing.T) {
	s := fullStatus()
	s.Context.Tokens = ptr(int64(104000))
	s.PID = 1234567
	for _, c := range []struct{ tpl, want string }{
		{"{{.model.id}} {{.context.percent}} {{.state}}", "claude-sonnet-4-5 42.4 busy"},
		{"{{.context.tokens}} {{.pid}}", "104000 1234567"}, // as written, never 1.04e+05
		{"{{percent .context.percent}} {{cost .usage.cost}} {{ago .updatedAt}}", "42% $0.37 5s"},
		{"{{short .model}} {{short .model.id}} {{short \"anthropic/claude-opus-4-1-20250805\"}}", "claude-sonnet-4-5 claude-sonnet-4-5 claude-opus-4-1"},
		{"{{json .model}}", `{"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5","provider":"anthropic"}`},
		{"{{json .context}}", `{"percent":42.4,"tokens":104000}`},
		{"{{percent .context.window}} {{cost .nothing}} {{.ticket.nope}} {{.nope.deeper}}", "? ? <no value> <no value>"}, // null or absent: the same
		{"{{.Model.ID}}", ""}, // a Go field name: refused
		{"{{if gt .context.percent 40.0}}hot{{end}} {{len .outputs}} {{(index .recent 0).tool}}", "hot 2 bash"},
		{"{{range .outputs}}{{.action}}:{{.path}} {{end}}", "changed:/src/shop/a.go created:/elsewhere/notes.md "},
		{"{{with .terminal}}in {{.}}{{else}}no terminal{{end}}", "no terminal"},
		{"{{if .ticket}}{{.ticket.key}}{{end}}", "SHOP-142"},
	} {
		var b strings.Builder
		err := Template(&b, c.tpl, encode(t, s), t0)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: want an error, got %q", c.tpl, b.String())
			}
			continue
		}
		if err != nil || b.String() != c.want {
			t.Errorf("%s:\n got %q (err %v)\nwant %q", c.tpl, b.String(), err, c.want)
		}
	}
}

// Unknown values print as "?", not as a made-up number.
func TestTemplateUnknowns(t *testing.T) {
	s := &status.Status{Schema: 1, Session: "s", State: status.Idle}
	var b strings.Builder
	if err := Template(&b, "{{percent .context.percent}} {{cost .usage.cost}} [{{short .model}}]", encode(t, s), t0); err != nil {
		t.Fatal(err)
	}
	if want := "? ? []"; b.String() != want { // model, context.percent and usage.cost are null
		t.Errorf("got %q, want %q", b.String(), want)
	}
	for _, bad := range []string{"{{percent .state}}", "{{cost .context}}", "{{ago .state}}", "{{short .pid}}"} {
		b.Reset()
		if err := Template(&b, bad, encode(t, s), t0); err == nil || b.Len() > 0 {
			t.Errorf("%s: got %q, err %v; want an error and nothing written", bad, b.String(), err)
		}
	}
}

// TestBounds: a template that never ends, prints without end or grows
// without end stops at its bound with a *BoundError, writes nothing, and
// returns (render/jq's TestBounds holds --jq to the same). The bounds are
// small here so the test stays short; the generous deadline only keeps a
// regression from hanging the suite, it asserts no speed.
func TestBounds(t *testing.T) {
	// Each case is given the one bound it must stop at, the others far off,
	// so a loaded machine cannot change which one it meets.
	within := map[string]Bounds{
		"time":   {Time: 200 * time.Millisecond, Output: 1 << 30, Memory: 1 << 30},
		"output": {Time: time.Minute, Output: 1 << 20, Memory: 1 << 30},
		"":       {Time: 200 * time.Millisecond, Output: 1 << 20, Memory: 64 << 20},
	}
	data := encode(t, fullStatus())
	for _, c := range []struct {
		format string
		stop   string // which bound: time or output; "" for any error
	}{
		{format: `{{range 1000000000}}{{end}}`, stop: "time"},
		{format: `{{range 100000}}{{range 100000}}{{end}}{{end}}`, stop: "time"},
		{format: `{{range 100000000}}xxxxxxxxxx{{end}}`, stop: "output"},
		{format: `{{range $i := 100000000}}{{json $}}{{end}}`, stop: "output"},
		{format: `{{define "x"}}{{template "x" .}}{{template "x" .}}{{end}}{{template "x" .}}`},
	} {
		var b strings.Builder
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			f, perr := Parse(c.format)
			if perr != nil {
				err = perr
				return
			}
			err = Execute(&b, f.Within(within[c.stop]), data, t0)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Minute):
			t.Fatalf("%s: still running", c.format)
		}
		var be *BoundError
		switch {
		case err == nil || b.Len() > 0:
			t.Errorf("%s: err %v, wrote %d bytes; want an error and nothing written", c.format, err, b.Len())
		case c.stop != "" && !errors.As(err, &be):
			t.Errorf("%s: %v, want a *BoundError", c.format, err)
		case c.stop != "" && !strings.Contains(err.Error(), map[string]string{"time": "after 200ms", "output": "1 MiB of output"}[c.stop]):
			t.Errorf("%s: %v, want the %s bound", c.format, err, c.stop)
		}
	}
}

// A run within its bounds is untouched by them, and JIG_RENDER_TIMEOUT
// sets the time.
func TestBoundsFrom(t *testing.T) {
	for v, want := range map[string]time.Duration{"": time.Second, "5s": 5 * time.Second, "250ms": 250 * time.Millisecond} {
		b, err := BoundsFrom(func(string) string { return v })
		if err != nil || b.Time != want || b.Output != DefaultBounds.Output || b.Memory != DefaultBounds.Memory {
			t.Errorf("%s=%q: %+v, %v", TimeoutVar, v, b, err)
		}
	}
	for _, v := range []string{"x", "-1s", "0"} {
		if _, err := BoundsFrom(func(string) string { return v }); err == nil || !strings.Contains(err.Error(), TimeoutVar) {
			t.Errorf("%s=%q: %v, want an error naming it", TimeoutVar, v, err)
		}
	}
	f, err := Parse(`{{range .outputs}}{{.path}} {{end}}{{range $i := 3}}{{$i}}{{end}}`)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Execute(&b, f, encode(t, fullStatus()), t0); err != nil || b.String() != "/src/shop/a.go /elsewhere/notes.md 012" {
		t.Errorf("a bounded run: %q, %v", b.String(), err)
	}
}
