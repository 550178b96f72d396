package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
	"time"

	"jig/status"
)

// --format and --jq read the same thing --json prints: the status file's
// JSON (an array of them for a list), by its keys (.model.id,
// .context.percent). Both see it with every string and key cleaned, and
// what they print is theirs, printed as made: their own text (a tab @tsv
// puts between fields, a colour) may shape the output, the agent's cannot.
// As in jq, a key that is null and a key that is not there are the same:
// <no value>, not an error.
//
// Neither may take the machine with it: a status line runs them every 2 s,
// and `repeat(.)`, `def f: f; f` or `{{range 1000000000}}` never end. Each
// run is bound (Bounds) in time, in what it prints and in the memory it
// takes, and stops with a *BoundError past any of them.

// Number is a JSON number as a template sees it: it prints as the file
// writes it (42, 0.31, 104000, never 1.04e+05) and compares with float
// constants (gt .context.percent 80.0).
type Number float64

func (n Number) String() string { return strconv.FormatFloat(float64(n), 'f', -1, 64) }

// Document decodes a JSON document into the value tree templates and
// queries (render/jq) read, cleaning every string and key; num makes each
// number.
func Document(data []byte, num func(json.Number) (any, error)) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return cleanTree(v, num)
}

func cleanTree(v any, num func(json.Number) (any, error)) (any, error) {
	switch v := v.(type) {
	case string:
		return Clean(v), nil
	case json.Number:
		return num(v)
	case []any:
		for i, e := range v {
			c, err := cleanTree(e, num)
			if err != nil {
				return nil, err
			}
			v[i] = c
		}
		return v, nil
	case map[string]any:
		out := v // in place, unless a key changes: a map copied is a map built again
		for k := range v {
			if Clean(k) != k {
				out = make(map[string]any, len(v))
				break
			}
		}
		for k, e := range v {
			c, err := cleanTree(e, num)
			if err != nil {
				return nil, err
			}
			out[Clean(k)] = c
		}
		return out, nil
	}
	return v, nil // bool, nil
}

func templateNumber(n json.Number) (any, error) {
	f, err := n.Float64()
	return Number(f), err
}

// dropNulls removes the null members of every object, so that for a
// template, as for jq, a key set to null and a key left out are the same:
// {{.ticket.title}} is <no value> whether ticket is null or has no title.
func dropNulls(v any) any {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			dropNulls(e) // in place
		}
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				dropNulls(e)
			}
		}
	}
	return v
}

// Funcs are the helpers a --format template may call, now being the clock
// ago measures from.
func Funcs(now time.Time) template.FuncMap {
	return template.FuncMap{
		"json":    jsonText,
		"short":   shortOf,
		"percent": func(v any) (string, error) { return numberHelper("percent", v, Percent) },
		"cost":    func(v any) (string, error) { return numberHelper("cost", v, Money) },
		"ago": func(v any) (string, error) {
			t, err := timeOf("ago", v)
			return Duration(now.Sub(t)), err
		},
		"until": func(v any) (string, error) {
			t, err := timeOf("until", v)
			return Until(now, t), err
		},
		// The status-line helpers (render/preset.go, attention.go).
		"glyph":  glyphOf,
		"waits":  waitsOf,
		"limits": limitsOf,
		"level": func(v any) (string, error) {
			p, err := number("level", v)
			return Level(p), err
		},
		"trunc": func(n int, s string) string { return Truncate(s, n) },
		"tmux":  TmuxEscape,
		"clean": Clean,
		"width": Width,
		// Every loop calls it first; Execute binds it to the run's time.
		tickHelper: func() (string, error) { return "", nil },
	}
}

// timeOf is a time from a template value: an RFC 3339 string.
func timeOf(helper string, v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("%s: want a time, got %s", helper, kind(v))
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %q is not an RFC 3339 time", helper, s)
	}
	return t, nil
}

// glyphOf is the state's glyph, ◐ when an attention is given and not null:
// {{glyph .state}}, {{glyph .state .attention}}.
func glyphOf(state any, attention ...any) string {
	if len(attention) > 0 && attention[0] != nil {
		return GlyphAttention
	}
	s, _ := state.(string)
	return Glyph(s)
}

// waitsOf is Waits for an attention object: "" for null.
func waitsOf(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case map[string]any:
		kind, _ := v["kind"].(string)
		tool, _ := v["tool"].(string)
		return waits(kind, tool), nil
	}
	return "", fmt.Errorf("waits: want an attention, got %s", kind(v))
}

// limitsOf is the rate limits' windows as the segment shows them,
// "5h 42% 7d 18%"; "" for null.
func limitsOf(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	var r status.RateLimits
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if _, isObject := v.(map[string]any); !isObject || err != nil {
		return "", fmt.Errorf("limits: want the rate limits, got %s", kind(v))
	}
	var texts []string
	for _, w := range RateWindows(&r) {
		texts = append(texts, w.Text())
	}
	return strings.Join(texts, " "), nil
}

// number is v as a *float64, nil for JSON null.
func number(helper string, v any) (*float64, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case Number:
		f := float64(v)
		return &f, nil
	case float64:
		return &v, nil
	case int:
		f := float64(v)
		return &f, nil
	}
	return nil, fmt.Errorf("%s: want a number, got %s", helper, kind(v))
}

func numberHelper(helper string, v any, format func(*float64) string) (string, error) {
	p, err := number(helper, v)
	return format(p), err
}

// shortOf is ShortModel for a model object ({id, name}) or a model id.
func shortOf(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return ShortModel(&status.Model{ID: v}), nil
	case map[string]any:
		id, _ := v["id"].(string)
		if m := ShortModel(&status.Model{ID: id}); m != "" {
			return m, nil
		}
		name, _ := v["name"].(string)
		return name, nil
	}
	return "", fmt.Errorf("short: want a model or a model id, got %s", kind(v))
}

// jsonText is v as compact JSON, as jq -c writes it.
func jsonText(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// kind names a JSON value's type for an error.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case Number, float64, int:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Format is a parsed --format template and the bounds it runs within.
type Format struct {
	t      *template.Template
	keys   map[string]bool // rootKeys(t)
	bounds Bounds
}

// Within is f bound by b instead of DefaultBounds.
func (f *Format) Within(b Bounds) *Format { return &Format{f.t, f.keys, b} }

// tickHelper is the helper every loop and template body calls first: it
// stops a run past its time. A loop whose body prints nothing or calls no
// helper (`{{range 1000000000}}{{end}}`) could not be stopped otherwise, and
// a goroutine cannot be killed.
const tickHelper = "_jigTick"

// Parse reads a --format template. The helpers' clock is bound at Execute.
// A Go field name (.Model, what templates read before they read the JSON)
// is refused: every key of the status is camelCase, so it is a mistake that
// would print <no value> on a status bar.
func Parse(text string) (*Format, error) {
	t, err := template.New("format").Funcs(Funcs(time.Time{})).Parse(text)
	if err != nil {
		return nil, err
	}
	if name := goField(t.Tree.Root); name != "" {
		return nil, fmt.Errorf("%s is a Go field name: the keys are the JSON's, as in {{.model.id}}", name)
	}
	tick := template.Must(template.New("tick").Funcs(Funcs(time.Time{})).Parse("{{" + tickHelper + "}}")).Tree.Root.Nodes[0]
	for _, named := range t.Templates() { // each {{define}}, so recursion ticks too
		if named.Tree != nil {
			named.Tree.Root.Nodes = append([]parse.Node{tick}, named.Tree.Root.Nodes...)
			tickLoops(named.Tree.Root, tick)
		}
	}
	return &Format{t, rootKeys(t), DefaultBounds}, nil
}

// tickLoops makes every range body under n call tick first.
func tickLoops(n parse.Node, tick parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				tickLoops(c, tick)
			}
		}
	case *parse.RangeNode:
		n.List.Nodes = append([]parse.Node{tick}, n.List.Nodes...)
		tickLoops(n.List, tick)
		tickLoops(n.ElseList, tick)
	case *parse.IfNode:
		tickLoops(n.List, tick)
		tickLoops(n.ElseList, tick)
	case *parse.WithNode:
		tickLoops(n.List, tick)
		tickLoops(n.ElseList, tick)
	}
}

// goField is the first field name in the template that starts with a
// capital letter, "" when there is none.
func goField(n parse.Node) string {
	check := func(idents []string) string {
		for _, id := range idents {
			if id != "" && id[0] >= 'A' && id[0] <= 'Z' {
				return "." + id
			}
		}
		return ""
	}
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return ""
		}
		for _, c := range n.Nodes {
			if f := goField(c); f != "" {
				return f
			}
		}
	case *parse.ActionNode:
		return goField(n.Pipe)
	case *parse.IfNode:
		return firstOf(goField(n.Pipe), goField(n.List), goField(n.ElseList))
	case *parse.RangeNode:
		return firstOf(goField(n.Pipe), goField(n.List), goField(n.ElseList))
	case *parse.WithNode:
		return firstOf(goField(n.Pipe), goField(n.List), goField(n.ElseList))
	case *parse.TemplateNode:
		return goField(n.Pipe)
	case *parse.PipeNode:
		if n == nil {
			return ""
		}
		for _, c := range n.Cmds {
			if f := goField(c); f != "" {
				return f
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			if f := goField(a); f != "" {
				return f
			}
		}
	case *parse.FieldNode:
		return check(n.Ident)
	case *parse.ChainNode:
		return firstOf(goField(n.Node), check(n.Field))
	case *parse.VariableNode:
		return check(n.Ident[1:])
	}
	return ""
}

func firstOf(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}

// Execute renders f over the JSON document data into w, all or nothing: on
// an error w gets no byte, so a status line never shows half a line or an
// error.
func Execute(w io.Writer, f *Format, data []byte, now time.Time) error {
	doc, err := documentOf(data, f.keys)
	if err != nil {
		return err
	}
	run, stop := f.bounds.Start(len(data))
	defer stop()
	funcs := Funcs(now)
	funcs[tickHelper] = func() (string, error) { return "", run.Err() }
	if err := template.Must(f.t.Clone()).Funcs(funcs).Execute(run, dropNulls(doc)); err != nil {
		if bound := run.Err(); bound != nil {
			return bound // the template's own words would be "write error", or the tick's
		}
		return err
	}
	_, err = w.Write(run.Bytes())
	return err
}

// Template renders text as a --format template over the JSON document data.
func Template(w io.Writer, text string, data []byte, now time.Time) error {
	f, err := Parse(text)
	if err != nil {
		return err
	}
	return Execute(w, f, data, now)
}
