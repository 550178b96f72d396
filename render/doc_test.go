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

// --jq prints what jq -r prints, one result a line, over the same cleaned
// JSON: the agent's escape sequences come out inert, and what the
// expression makes — @tsv's tabs, its own lines and colours — is printed as
// made (a tab came out as "?" before: the cleaner ran on jq's output).
func TestJQ(t *testing.T) {
	s := fullStatus()
	s.CWD = "/src/\x1b]52;c;eHg=\x07shop"
	s.Model.Name = "Claude\u202e5.4"
	s.Session = "id\twith\ttabs"
	for _, c := range []struct{ expr, want string }{
		{".model.id", "claude-sonnet-4-5\n"},
		{".context.percent", "42.4\n"},
		{".model", `{"id":"claude-sonnet-4-5","name":"Claude5.4","provider":"anthropic"}` + "\n"},
		{".recent[].tool", "bash\nread\n"},
		{".cwd", "/src/?]52;c;eHg=?shop\n"},
		{`"\(.state) \(.context.percent | floor)%"`, "busy 42%\n"},
		{`[.outputs[] | select(.action == "created") | .path]`, `["/elsewhere/notes.md"]` + "\n"},
		{`"a\u001bb"`, "a\x1bb\n"}, // the expression's own text
		{`[.session, .state] | @tsv`, "id?with?tabs\tbusy\n"},
		{`"\(.state)\n\(.model.id)"`, "busy\nclaude-sonnet-4-5\n"},
		{`.session | split("?") | join("\t")`, "id\twith\ttabs\n"},
		{`$ENV | length`, "0\n"},
		{`1, halt, 2`, "1\n"},
		{`empty`, ""},
	} {
		code, err := ParseJQ(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		var b strings.Builder
		if err := JQ(&b, code, encode(t, s)); err != nil || b.String() != c.want {
			t.Errorf("%s:\n got %q (err %v)\nwant %q", c.expr, b.String(), err, c.want)
		}
	}
	if _, err := ParseJQ(".model.["); err == nil {
		t.Error("a broken expression compiled")
	}
	code, _ := ParseJQ(`.state, error("boom")`)
	var b strings.Builder
	if err := JQ(&b, code, encode(t, s)); err == nil || b.Len() > 0 {
		t.Errorf("a failing run wrote %q (err %v)", b.String(), err)
	}
}

// TestBounds: an expression or template that never ends, prints without
// end or grows without end stops at its bound with a *BoundError, writes
// nothing, and returns (before, repeat(.) grew until Go died of "out of
// memory" with a stack dump, and def f: f; f ran forever). The bounds are
// small here so the test stays short; the generous deadline only keeps a
// regression from hanging the suite, it asserts no speed.
func TestBounds(t *testing.T) {
	// Each case is given the one bound it must stop at, the others far off,
	// so a loaded machine cannot change which one it meets.
	within := map[string]Bounds{
		"time":   {Time: 200 * time.Millisecond, Output: 1 << 30, Memory: 1 << 30},
		"output": {Time: time.Minute, Output: 1 << 20, Memory: 1 << 30},
		"memory": {Time: time.Minute, Output: 1 << 30, Memory: 64 << 20},
		"":       {Time: 200 * time.Millisecond, Output: 1 << 20, Memory: 64 << 20},
	}
	data := encode(t, fullStatus())
	for _, c := range []struct {
		jq, format string
		stop       string // which bound: time, output or memory; "" for any error
	}{
		{jq: `repeat(.)`, stop: "output"},
		{jq: `def f: f; f`, stop: "time"},
		{jq: `last(range(1e10))`, stop: "time"},
		{jq: `[range(1e9)]`},
		{jq: `def f: [f]; f`},
		{jq: `[limit(1e9; repeat("x" * 1e5))] | length`, stop: "memory"},
		{format: `{{range 1000000000}}{{end}}`, stop: "time"},
		{format: `{{range 100000}}{{range 100000}}{{end}}{{end}}`, stop: "time"},
		{format: `{{range 100000000}}xxxxxxxxxx{{end}}`, stop: "output"},
		{format: `{{range $i := 100000000}}{{json $}}{{end}}`, stop: "output"},
		{format: `{{define "x"}}{{template "x" .}}{{template "x" .}}{{end}}{{template "x" .}}`},
	} {
		what := c.jq + c.format
		var b strings.Builder
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			if c.jq != "" {
				q, perr := ParseJQ(c.jq)
				if perr != nil {
					err = perr
					return
				}
				err = JQ(&b, q.Within(within[c.stop]), data)
				return
			}
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
			t.Fatalf("%s: still running", what)
		}
		var be *BoundError
		switch {
		case err == nil || b.Len() > 0:
			t.Errorf("%s: err %v, wrote %d bytes; want an error and nothing written", what, err, b.Len())
		case c.stop != "" && !errors.As(err, &be):
			t.Errorf("%s: %v, want a *BoundError", what, err)
		case c.stop != "" && !strings.Contains(err.Error(), map[string]string{"time": "after 200ms", "output": "1 MiB of output", "memory": "64 MiB of memory"}[c.stop]):
			t.Errorf("%s: %v, want the %s bound", what, err, c.stop)
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
