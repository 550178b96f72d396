package render

import (
	"strings"
	"testing"

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
// JSON: the agent's escape sequences come out inert.
func TestJQ(t *testing.T) {
	s := fullStatus()
	s.CWD = "/src/\x1b]52;c;eHg=\x07shop"
	s.Model.Name = "Claude\u202e5.4"
	for _, c := range []struct{ expr, want string }{
		{".model.id", "claude-sonnet-4-5\n"},
		{".context.percent", "42.4\n"},
		{".model", `{"id":"claude-sonnet-4-5","name":"Claude5.4","provider":"anthropic"}` + "\n"},
		{".recent[].tool", "bash\nread\n"},
		{".cwd", "/src/?]52;c;eHg=?shop\n"},
		{`"\(.state) \(.context.percent | floor)%"`, "busy 42%\n"},
		{`[.outputs[] | select(.action == "created") | .path]`, `["/elsewhere/notes.md"]` + "\n"},
		{`"a\u001bb"`, "a?b\n"},
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
