package render

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// A template that names its top-level keys decodes only those; one that may
// read the document whole (a bare dot or $ at the top, {{template}},
// {{define}}) decodes all of it.
func TestRootKeys(t *testing.T) {
	for _, c := range []struct {
		tpl  string
		want string // the keys, "*" for the whole document
	}{
		{"{{.state}}", "state"},
		{"{{short .model}} {{percent .context.percent}} {{cost .usage.cost}}", "context model usage"},
		{"{{if gt .context.percent 40.0}}hot{{else}}{{.state}}{{end}}", "context state"},
		{"{{range .outputs}}{{.action}} {{.}} {{$.cwd}}{{end}}", "cwd outputs"},
		{"{{with .terminal}}{{.}}{{else}}{{.agent}}{{end}}", "agent terminal"},
		{"{{range $i, $o := .outputs}}{{$o.path}}{{end}} {{$x := .pid}}{{$x}}", "outputs pid"},
		{"{{(index .recent 0).tool}}", "recent"},
		{"plain text", ""},
		{"{{json .}}", "*"},
		{"{{index . \"state\"}}", "*"},
		{"{{$}}", "*"},
		{"{{$d := .}}{{$d.state}}", "*"},
		{`{{define "x"}}{{.state}}{{end}}{{template "x" .}}`, "*"},
		{"{{range .outputs}}{{template \"format\"}}{{end}}", "*"},
	} {
		f, err := Parse(c.tpl)
		if err != nil {
			t.Fatalf("%s: %v", c.tpl, err)
		}
		got := "*"
		if f.keys != nil {
			got = strings.Join(slices.Sorted(maps.Keys(f.keys)), " ")
		}
		if got != c.want {
			t.Errorf("%s: keys %q, want %q", c.tpl, got, c.want)
		}
	}
}

// Decoding only the keys a template names prints what decoding the whole
// document prints: nulls, keys that clean to the key, a key given twice,
// a document that is not an object.
func TestRootKeysPrintTheSame(t *testing.T) {
	docs := []string{
		string(encode(t, fullStatus())),
		`{"state":null,"model":{"id":"m"},"st\u0007ate":"x"}`,
		`{"state":"a","state":"b","pid":1e3}`,
		`{"state":"a","x":1e400}`,
		`{"state":"a","x":[1E-999, "1e400"],"y":true}`,
		`{"state":"a","x":` + strings.Repeat("9", 400) + `}`,
		`{"state":"1e400 \"e9\" false"}`,
		`{"state":"a\\","x":1e400}`,
		` {"context":{"percent":null,"tokens":5}}`,
		`[{"state":"in a list"}]`,
		`null`,
		`{"state":"a"} trailing`,
		`{"state":`,
	}
	for _, tpl := range []string{
		"{{.state}}", "{{json .model}} {{.pid}}", "{{percent .context.percent}} {{.context.tokens}}",
		"{{range .outputs}}{{.path}} {{end}}{{.nope}}", "{{with .ticket}}{{.key}}{{else}}none{{end}}",
	} {
		f, err := Parse(tpl)
		if err != nil {
			t.Fatalf("%s: %v", tpl, err)
		}
		whole := &Format{f.t, nil, f.bounds}
		for _, doc := range docs {
			var got, want strings.Builder
			gotErr := Execute(&got, f, []byte(doc), t0)
			wantErr := Execute(&want, whole, []byte(doc), t0)
			if got.String() != want.String() || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("%s over %.40s:\n got %q (err %v)\nwant %q (err %v)", tpl, doc, got.String(), gotErr, want.String(), wantErr)
			}
		}
	}
}

// Whatever the document, a template reading a few keys prints what it
// prints over the document decoded whole.
func FuzzRootKeys(f *testing.F) {
	f.Add([]byte(`{"state":"a","state":"b","st\u0061te":"c","model":{"id":"m"},"x":[1,2]}`))
	f.Add([]byte(`{"state":"a"} trailing`))
	f.Add([]byte(`{"context":{"percent":5},"\u00e9":1,"stat\u00e9":"x"}`))
	tpl, err := Parse("{{.state}} {{json .model}} {{percent .context.percent}}")
	if err != nil {
		f.Fatal(err)
	}
	whole := &Format{tpl.t, nil, tpl.bounds}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var got, want strings.Builder
		gotErr := Execute(&got, tpl, doc, t0)
		wantErr := Execute(&want, whole, doc, t0)
		if got.String() != want.String() || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("over %q:\n got %q (err %v)\nwant %q (err %v)", doc, got.String(), gotErr, want.String(), wantErr)
		}
	})
}
