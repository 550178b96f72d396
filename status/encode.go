package status

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Encode is the file's bytes: indented JSON and a final newline, the bytes
// json.MarshalIndent(s, "", "  ") writes. encodeFast writes them without
// reflection: encoding/json builds its encoders of Status's types once per
// process before it writes a byte, and re-scans its output to indent it,
// about 1.7 M instructions for a 9 KB file in a hook that runs once
// (bench/hooks.md). What it does not write itself goes to MarshalIndent.
func Encode(s *Status) ([]byte, error) {
	if data, ok := encodeFast(s); ok {
		return data, nil
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// encodeFast writes s as Encode does, and reports false for what it leaves
// to encoding/json: a workflow's PRs (raw JSON, which MarshalIndent
// re-indents), a float that is not a number, a time RFC 3339 cannot hold
// (both errors there). FuzzEncodeFast holds it to json.MarshalIndent.
func encodeFast(s *Status) ([]byte, bool) {
	e := encoder{b: make([]byte, 0, 4096)}
	e.status(s)
	if e.failed {
		return nil, false
	}
	return append(e.b, '\n'), true
}

// encoder appends one indented JSON document to b. Every object and array
// it opens counts its members, so an empty one closes on its own line's
// brace, as MarshalIndent writes {} and [].
type encoder struct {
	b      []byte
	open   []int // members so far in each object or array open, outermost first
	failed bool
}

func (e *encoder) newline() {
	e.b = append(e.b, '\n')
	for range e.open {
		e.b = append(e.b, ' ', ' ')
	}
}

func (e *encoder) begin(c byte) {
	e.b = append(e.b, c)
	e.open = append(e.open, 0)
}

func (e *encoder) end(c byte) {
	n := e.open[len(e.open)-1]
	e.open = e.open[:len(e.open)-1]
	if n > 0 {
		e.newline()
	}
	e.b = append(e.b, c)
}

// next starts an object's member or an array's item on its own line.
func (e *encoder) next() {
	if e.open[len(e.open)-1]++; e.open[len(e.open)-1] > 1 {
		e.b = append(e.b, ',')
	}
	e.newline()
}

// key starts an object's member named name (a field's name: plain ASCII).
func (e *encoder) key(name string) {
	e.next()
	e.b = append(e.b, '"')
	e.b = append(e.b, name...)
	e.b = append(e.b, '"', ':', ' ')
}

func (e *encoder) null() { e.b = append(e.b, "null"...) }

// str appends s quoted as encoding/json quotes it: <, > and & escaped for
// HTML, U+2028 and U+2029 for JavaScript, a byte that is not UTF-8 as
// U+FFFD.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	b := append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	e.b = append(b, '"')
}

func (e *encoder) int(n int64) { e.b = strconv.AppendInt(e.b, n, 10) }

func (e *encoder) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

// float appends f as encoding/json writes a float64: the shortest form,
// in exponent form below 1e-6 and from 1e21 on, with e-07 shortened to e-7.
func (e *encoder) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.failed = true
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	e.b = b
}

func (e *encoder) time(t time.Time) {
	data, err := t.MarshalJSON()
	if err != nil {
		e.failed = true
		return
	}
	e.b = append(e.b, data...)
}

// nullable appends null for nil, else what write appends for *p.
func nullable[T any](e *encoder, p *T, write func(*encoder, T)) {
	if p == nil {
		e.null()
		return
	}
	write(e, *p)
}

// array appends null for a nil slice, else its items, each by write.
func array[T any](e *encoder, items []T, write func(*encoder, *T)) {
	if items == nil {
		e.null()
		return
	}
	e.begin('[')
	for i := range items {
		e.next()
		write(e, &items[i])
	}
	e.end(']')
}

func (e *encoder) switched(m map[string]bool) {
	if m == nil {
		e.null()
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.begin('{')
	for _, k := range keys {
		e.next()
		e.str(k)
		e.b = append(e.b, ':', ' ')
		e.bool(m[k])
	}
	e.end('}')
}

func (e *encoder) strOmit(name, v string) {
	if v != "" {
		e.key(name)
		e.str(v)
	}
}

func (e *encoder) strKey(name, v string) {
	e.key(name)
	e.str(v)
}

func (e *encoder) intKey(name string, v int64) {
	e.key(name)
	e.int(v)
}

func (e *encoder) timeKey(name string, t time.Time) {
	e.key(name)
	e.time(t)
}

func (e *encoder) status(s *Status) {
	e.begin('{')
	e.intKey("schema", int64(s.Schema))
	e.strKey("session", s.Session)
	e.intKey("pid", int64(s.PID))
	e.strOmit("pidStart", s.PIDStart)
	e.strKey("host", s.Host)
	e.strKey("cwd", s.CWD)
	e.key("terminal")
	nullable(e, s.Terminal, (*encoder).str)
	e.key("terminalFrom")
	nullable(e, s.TerminalFrom, (*encoder).str)
	e.key("terminals")
	array(e, s.Terminals, (*encoder).terminalID)
	e.strKey("agent", s.Agent)
	e.strKey("agentDir", s.AgentDir)
	e.key("sessionFile")
	nullable(e, s.SessionFile, (*encoder).str)
	e.key("model")
	nullable(e, s.Model, (*encoder).model)
	e.key("thinking")
	nullable(e, s.Thinking, (*encoder).str)
	e.strKey("state", s.State)
	e.key("stateSince")
	nullable(e, s.StateSince, (*encoder).time)
	e.key("attention")
	nullable(e, s.Attention, (*encoder).attention)
	e.key("context")
	e.context(s.Context)
	e.key("usage")
	e.usage(s.Usage)
	e.key("rateLimits")
	nullable(e, s.RateLimits, (*encoder).rateLimits)
	e.key("tools")
	e.begin('{')
	e.intKey("active", int64(s.Tools.Active))
	e.intKey("total", int64(s.Tools.Total))
	e.end('}')
	e.key("switches")
	e.begin('{')
	e.key("tools")
	e.switched(s.Switches.Tools)
	e.key("skills")
	e.switched(s.Switches.Skills)
	e.end('}')
	e.key("ticket")
	nullable(e, s.Ticket, (*encoder).ticket)
	e.key("workflow")
	nullable(e, s.Workflow, (*encoder).workflow)
	e.key("outputs")
	array(e, s.Outputs, (*encoder).output)
	e.key("recent")
	array(e, s.Recent, (*encoder).call)
	e.key("contextDetail")
	nullable(e, s.ContextDetail, (*encoder).contextDetail)
	e.key("lastRequest")
	nullable(e, s.LastRequest, (*encoder).answer)
	e.timeKey("startedAt", s.StartedAt)
	e.timeKey("updatedAt", s.UpdatedAt)
	e.end('}')
}

func (e *encoder) terminalID(t *TerminalID) {
	e.begin('{')
	e.strKey("from", t.From)
	e.strKey("id", t.ID)
	e.strOmit("instance", t.Instance)
	e.end('}')
}

func (e *encoder) model(m Model) {
	e.begin('{')
	e.strKey("provider", m.Provider)
	e.strKey("id", m.ID)
	e.strKey("name", m.Name)
	e.end('}')
}

func (e *encoder) attention(a Attention) {
	e.begin('{')
	e.strKey("kind", a.Kind)
	e.timeKey("since", a.Since)
	e.strOmit("tool", a.Tool)
	e.end('}')
}

func (e *encoder) context(c Context) {
	e.begin('{')
	e.key("tokens")
	nullable(e, c.Tokens, (*encoder).int)
	e.key("window")
	nullable(e, c.Window, (*encoder).int)
	e.key("percent")
	nullable(e, c.Percent, (*encoder).float)
	e.end('}')
}

func (e *encoder) usage(u Usage) {
	e.begin('{')
	e.intKey("input", u.Input)
	e.intKey("output", u.Output)
	e.intKey("cacheRead", u.CacheRead)
	e.intKey("cacheWrite", u.CacheWrite)
	e.key("cost")
	nullable(e, u.Cost, (*encoder).float)
	e.end('}')
}

func (e *encoder) rateLimits(r RateLimits) {
	e.begin('{')
	e.key("fiveHour")
	nullable(e, r.FiveHour, (*encoder).rateLimit)
	e.key("weekly")
	nullable(e, r.Weekly, (*encoder).rateLimit)
	e.end('}')
}

func (e *encoder) rateLimit(r RateLimit) {
	e.begin('{')
	e.key("usedPercent")
	e.float(r.UsedPercent)
	e.key("resetsAt")
	nullable(e, r.ResetsAt, (*encoder).time)
	e.end('}')
}

func (e *encoder) ticket(t Ticket) {
	e.begin('{')
	e.strKey("key", t.Key)
	e.strOmit("title", t.Title)
	e.strOmit("url", t.URL)
	e.strOmit("from", t.From)
	e.end('}')
}

func (e *encoder) workflow(w Workflow) {
	if len(w.PRs) > 0 {
		e.failed = true
		return
	}
	e.begin('{')
	e.strKey("name", w.Name)
	e.key("stages")
	array(e, w.Stages, func(e *encoder, s *string) { e.str(*s) })
	e.strKey("current", w.Current)
	e.strOmit("since", w.Since)
	e.key("prs")
	if w.PRs == nil {
		e.null()
	} else {
		e.b = append(e.b, '[', ']')
	}
	e.strOmit("problem", w.Problem)
	e.end('}')
}

func (e *encoder) output(o *Output) {
	e.begin('{')
	e.strKey("path", o.Path)
	e.strKey("action", o.Action)
	e.timeKey("at", o.At)
	e.key("repo")
	nullable(e, o.Repo, (*encoder).str)
	e.end('}')
}

func (e *encoder) call(c *Call) {
	e.begin('{')
	e.timeKey("at", c.At)
	e.strKey("tool", c.Tool)
	e.strOmit("action", c.Action)
	e.strOmit("decision", c.Decision)
	e.strOmit("answer", c.Answer)
	e.strKey("outcome", c.Outcome)
	e.end('}')
}

func (e *encoder) contextDetail(c ContextDetail) {
	e.begin('{')
	e.key("window")
	nullable(e, c.Window, (*encoder).int)
	e.intKey("tokens", c.Tokens)
	e.key("parts")
	array(e, c.Parts, func(e *encoder, p *ContextPart) {
		e.begin('{')
		e.strKey("name", p.Name)
		e.intKey("tokens", p.Tokens)
		e.end('}')
	})
	e.key("tools")
	array(e, c.Tools, (*encoder).contextItem)
	e.key("skills")
	array(e, c.Skills, (*encoder).contextItem)
	e.key("files")
	array(e, c.Files, (*encoder).contextItem)
	e.end('}')
}

func (e *encoder) contextItem(c *ContextItem) {
	e.begin('{')
	e.strKey("name", c.Name)
	e.strOmit("source", c.Source)
	e.intKey("tokens", c.Tokens)
	if c.Off {
		e.key("off")
		e.bool(true)
	}
	if c.Inactive {
		e.key("inactive")
		e.bool(true)
	}
	e.end('}')
}

func (e *encoder) answer(a Answer) {
	e.begin('{')
	e.strKey("id", a.ID)
	e.key("ok")
	e.bool(a.OK)
	e.strKey("message", a.Message)
	e.timeKey("at", a.At)
	if a.Reload != nil {
		e.key("reload")
		e.bool(*a.Reload)
	}
	if len(a.Covers) > 0 {
		e.key("covers")
		array(e, a.Covers, func(e *encoder, s *string) { e.str(*s) })
	}
	e.end('}')
}
