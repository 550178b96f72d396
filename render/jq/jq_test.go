package jq

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"jig/render"
)

// doc is a status file's JSON with what an agent may put in it: an escape
// sequence in its cwd, a bidi control in its model's name, tabs in its id.
const doc = `{"schema":1,"session":"id\twith\ttabs","state":"busy","cwd":"/src/\u001b]52;c;eHg=\u0007shop",` +
	`"model":{"provider":"anthropic","id":"claude-sonnet-4-5","name":"Claude\u202e5.4"},"context":{"percent":42.4},` +
	`"ticket":{"key":"SHOP-142","title":"Refunds"},` +
	`"outputs":[{"path":"/src/shop/a.go","action":"changed"},{"path":"/elsewhere/notes.md","action":"created"}],` +
	`"recent":[{"tool":"bash"},{"tool":"read"}]}`

func compile(t *testing.T, expr string, b render.Bounds) render.Filter {
	t.Helper()
	q, err := Compile(expr, b)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return q
}

// --jq prints what jq -r prints, one result a line, over the same cleaned
// JSON: the agent's escape sequences come out inert, and what the
// expression makes — @tsv's tabs, its own lines and colours — is printed as
// made (a tab came out as "?" before: the cleaner ran on jq's output).
func TestJQ(t *testing.T) {
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
		var b strings.Builder
		if err := compile(t, c.expr, render.DefaultBounds).Run(&b, []byte(doc)); err != nil || b.String() != c.want {
			t.Errorf("%s:\n got %q (err %v)\nwant %q", c.expr, b.String(), err, c.want)
		}
	}
	if _, err := Compile(".model.[", render.DefaultBounds); err == nil {
		t.Error("a broken expression compiled")
	}
	var b strings.Builder
	if err := compile(t, `.state, error("boom")`, render.DefaultBounds).Run(&b, []byte(doc)); err == nil || b.Len() > 0 {
		t.Errorf("a failing run wrote %q (err %v)", b.String(), err)
	}
}

// TestBounds: an expression that never ends, prints without end or grows
// without end stops at its bound with a *render.BoundError, writes nothing,
// and returns (before, repeat(.) grew until Go died of "out of memory" with
// a stack dump, and def f: f; f ran forever), as a template does (render's
// TestBounds). The bounds are small here so the test stays short; the
// generous deadline only keeps a regression from hanging the suite, it
// asserts no speed.
func TestBounds(t *testing.T) {
	// Each case is given the one bound it must stop at, the others far off,
	// so a loaded machine cannot change which one it meets.
	within := map[string]render.Bounds{
		"time":   {Time: 200 * time.Millisecond, Output: 1 << 30, Memory: 1 << 30},
		"output": {Time: time.Minute, Output: 1 << 20, Memory: 1 << 30},
		"memory": {Time: time.Minute, Output: 1 << 30, Memory: 64 << 20},
		"":       {Time: 200 * time.Millisecond, Output: 1 << 20, Memory: 64 << 20},
	}
	for _, c := range []struct {
		jq   string
		stop string // which bound: time, output or memory; "" for any error
	}{
		{jq: `repeat(.)`, stop: "output"},
		{jq: `def f: f; f`, stop: "time"},
		{jq: `last(range(1e10))`, stop: "time"},
		{jq: `[range(1e9)]`},
		{jq: `def f: [f]; f`},
		{jq: `[limit(1e9; repeat("x" * 1e5))] | length`, stop: "memory"},
	} {
		q := compile(t, c.jq, within[c.stop])
		var b strings.Builder
		done := make(chan error)
		go func() { done <- q.Run(&b, []byte(doc)) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Minute):
			t.Fatalf("%s: still running", c.jq)
		}
		var be *render.BoundError
		switch {
		case err == nil || b.Len() > 0:
			t.Errorf("%s: err %v, wrote %d bytes; want an error and nothing written", c.jq, err, b.Len())
		case c.stop != "" && !errors.As(err, &be):
			t.Errorf("%s: %v, want a *render.BoundError", c.jq, err)
		case c.stop != "" && !strings.Contains(err.Error(), map[string]string{"time": "after 200ms", "output": "1 MiB of output", "memory": "64 MiB of memory"}[c.stop]):
			t.Errorf("%s: %v, want the %s bound", c.jq, err, c.stop)
		}
	}
}

// The printer takes --jq through Output.CompileJQ: a document's results,
// a list's array read whole, and an expression that does not compile as a
// usage error with its words.
func TestPrinter(t *testing.T) {
	p, err := render.NewPrinter(render.Output{JQ: ptr(".state, .ticket.key"), CompileJQ: Compile})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := p.Doc(&b, []byte(doc)); err != nil || !p.Raw() || b.String() != "busy\nSHOP-142\n" {
		t.Errorf("Doc: %q, %v, Raw %v", b.String(), err, p.Raw())
	}
	p, err = render.NewPrinter(render.Output{JQ: ptr(".[].state"), CompileJQ: Compile})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	write := func(w io.Writer) error {
		_, err := io.WriteString(w, `[{"state":"busy"},{"state":"idle"}]`+"\n")
		return err
	}
	if err := p.Docs(&b, write); err != nil || b.String() != "busy\nidle\n" {
		t.Errorf("Docs: %q, %v", b.String(), err)
	}
	if _, err := render.NewPrinter(render.Output{JQ: ptr(".["), CompileJQ: Compile}); !errors.Is(err, render.ErrUsage) || !strings.HasPrefix(err.Error(), "--jq: ") {
		t.Errorf("a broken --jq: %v, want a usage error \"--jq: …\"", err)
	}
}

func ptr[T any](v T) *T { return &v }
