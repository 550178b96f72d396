package status

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// decodeFast lays the JSON object data over s as json.Unmarshal does over
// a zero Status, without reflection: encoding/json builds its decoders of
// Status's types once per process before it decodes a byte, about 1 M
// instructions, and a hook decodes one file (about 1 M more for 9 KB,
// which this reads in 0.3 M). It takes a document as Encode writes
// it, every key a field's own name once and every value of its field's
// type, and reports false for anything else: a key in another case,
// unknown, escaped or twice, a value of another type, a number its field
// cannot hold. json.Unmarshal then decodes it from the start and says
// what is wrong. FuzzDecodeFast holds it to json.Unmarshal. Over a status
// not zero, it lays data as Merge merges a patch before the result is
// decoded afresh (Restates): a member that is an object is decoded into
// its struct field, any other replaces the field's value, null with its
// zero.
func decodeFast(data []byte, s *Status) bool {
	d := decoder{data: data, i: skipSpace(data, 0)}
	return decodeStatus(&d, s) && d.i == len(data)
}

// decoder reads one JSON document. Each of its reads takes the value at
// i and the space after it, and reports false when that is not a value
// of the field it fills.
type decoder struct {
	data  []byte
	i     int
	depth int // the objects and arrays open at i, as json.Valid counts them
}

// next reads the byte c and the space after it, if c is at i.
func (d *decoder) next(c byte) bool {
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i = skipSpace(d.data, d.i+1)
		return true
	}
	return false
}

// null reads null, if it is at i.
func (d *decoder) null() bool {
	if end, ok := literal(d.data, d.i, "null"); ok {
		d.i = skipSpace(d.data, end)
		return true
	}
	return false
}

// decodeNull reads null, if it is at i, as the zero value of what p
// points to.
func decodeNull[T any](d *decoder, p *T) bool {
	if d.null() {
		var zero T
		*p = zero
		return true
	}
	return false
}

// members reads the rest of an object whose '{' was read, handing member
// each key as written (quotes included) with the decoder at its value,
// which member reads.
func (d *decoder) members(member func(key []byte) bool) bool {
	if d.depth++; d.depth > maxDepth {
		return false
	}
	for first := true; !d.next('}'); first = false {
		if !first && !d.next(',') {
			return false
		}
		at := d.i
		end, ok := quoted(d.data, at)
		if !ok {
			return false
		}
		d.i = skipSpace(d.data, end)
		if !d.next(':') || !member(d.data[at:end]) {
			return false
		}
	}
	d.depth--
	return true
}

// maxFields bounds the keys of one struct's object: Status has 30 fields,
// so an object with more keys has one unknown or twice.
const maxFields = 32

// decodeStruct reads an object into the struct v points to: field reads
// the value of the field a key names, false when the struct has none. A
// key encoding/json would unquote or fold (an escape, a byte outside
// ASCII) or decode over (a key twice) is declined.
func decodeStruct[T any](d *decoder, v *T, field func(name []byte) bool) bool {
	if decodeNull(d, v) {
		return true
	}
	var seen [maxFields][]byte
	n := 0
	return d.next('{') && d.members(func(key []byte) bool {
		name := key[1 : len(key)-1]
		for _, c := range name {
			if c == '\\' || c >= utf8.RuneSelf {
				return false
			}
		}
		for _, k := range seen[:n] {
			if bytes.Equal(k, name) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n], n = name, n+1
		return field(name)
	})
}

// items reads an array, item reading each of its values.
func (d *decoder) items(item func() bool) bool {
	if !d.next('[') {
		return false
	}
	if d.depth++; d.depth > maxDepth {
		return false
	}
	for first := true; !d.next(']'); first = false {
		if !first && !d.next(',') || !item() {
			return false
		}
	}
	d.depth--
	return true
}

// scalar reads the string, number, true or false at i: its bytes.
func (d *decoder) scalar() ([]byte, bool) {
	if d.i >= len(d.data) {
		return nil, false
	}
	var end int
	ok := false
	switch c := d.data[d.i]; {
	case c == '"':
		end, ok = quoted(d.data, d.i)
	case c == '-' || c >= '0' && c <= '9':
		end, ok = number(d.data, d.i)
	case c == 't':
		end, ok = literal(d.data, d.i, "true")
	case c == 'f':
		end, ok = literal(d.data, d.i, "false")
	}
	if !ok {
		return nil, false
	}
	v := d.data[d.i:end]
	d.i = skipSpace(d.data, end)
	return v, true
}

// text is the JSON string quoted (its quotes included) as encoding/json
// unquotes it.
func text(quoted []byte) (string, bool) {
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw), true
	}
	var s string
	return s, json.Unmarshal(quoted, &s) == nil // escapes, and bytes outside UTF-8 made U+FFFD
}

func decodeString(d *decoder, p *string) bool {
	if decodeNull(d, p) {
		return true
	}
	v, ok := d.scalar()
	if !ok || v[0] != '"' {
		return false
	}
	*p, ok = text(v)
	return ok
}

// number reads a number: its bytes.
func (d *decoder) number() ([]byte, bool) {
	v, ok := d.scalar()
	return v, ok && (v[0] == '-' || v[0] >= '0' && v[0] <= '9')
}

func decodeInt64(d *decoder, p *int64) bool {
	if decodeNull(d, p) {
		return true
	}
	v, ok := d.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(string(v), 10, 64) // a fraction or an exponent is no int to encoding/json either
	if err != nil {
		return false
	}
	*p = n
	return true
}

func decodeInt(d *decoder, p *int) bool {
	n := int64(*p)
	if !decodeInt64(d, &n) || int64(int(n)) != n {
		return false
	}
	*p = int(n)
	return true
}

func decodeFloat(d *decoder, p *float64) bool {
	if decodeNull(d, p) {
		return true
	}
	v, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return false
	}
	*p = f
	return true
}

func decodeBool(d *decoder, p *bool) bool {
	if decodeNull(d, p) {
		return true
	}
	v, ok := d.scalar()
	if !ok || v[0] != 't' && v[0] != 'f' {
		return false
	}
	*p = v[0] == 't'
	return true
}

// decodeTime hands time.Time the value, as encoding/json does.
func decodeTime(d *decoder, p *time.Time) bool {
	if decodeNull(d, p) {
		return true
	}
	v, ok := d.scalar()
	return ok && p.UnmarshalJSON(v) == nil
}

// decodeRaw keeps any value as its bytes, without the space after it.
func decodeRaw(d *decoder, p *json.RawMessage) bool {
	v, end, ok := valueAt(d.data, d.i, d.depth)
	if !ok {
		return false
	}
	*p, d.i = append(json.RawMessage(nil), v...), end
	return true
}

// decodePtr reads a pointer's value: null is nil.
func decodePtr[T any](d *decoder, p **T, read func(*decoder, *T) bool) bool {
	if decodeNull(d, p) {
		return true
	}
	v := new(T)
	if !read(d, v) {
		return false
	}
	*p = v
	return true
}

// decodeSlice reads a list: null is nil, [] an empty list.
func decodeSlice[T any](d *decoder, p *[]T, read func(*decoder, *T) bool) bool {
	if decodeNull(d, p) {
		return true
	}
	list := []T{}
	if !d.items(func() bool {
		list = append(list, *new(T))
		return read(d, &list[len(list)-1])
	}) {
		return false
	}
	*p = list
	return true
}

// decodeSwitched reads a map of names: null is nil, and a null value false.
func decodeSwitched(d *decoder, p *map[string]bool) bool {
	if decodeNull(d, p) {
		return true
	}
	m := map[string]bool{}
	if !d.next('{') || !d.members(func(key []byte) bool {
		name, ok := text(key)
		var on bool
		if !ok || !decodeBool(d, &on) {
			return false
		}
		m[name] = on
		return true
	}) {
		return false
	}
	*p = m
	return true
}

func decodeStatus(d *decoder, s *Status) bool {
	return decodeStruct(d, s, func(name []byte) bool {
		switch string(name) {
		case "schema":
			return decodeInt(d, &s.Schema)
		case "session":
			return decodeString(d, &s.Session)
		case "pid":
			return decodeInt(d, &s.PID)
		case "pidStart":
			return decodeString(d, &s.PIDStart)
		case "host":
			return decodeString(d, &s.Host)
		case "cwd":
			return decodeString(d, &s.CWD)
		case "terminal":
			return decodePtr(d, &s.Terminal, decodeString)
		case "terminalFrom":
			return decodePtr(d, &s.TerminalFrom, decodeString)
		case "terminals":
			return decodeSlice(d, &s.Terminals, decodeTerminalID)
		case "agent":
			return decodeString(d, &s.Agent)
		case "agentDir":
			return decodeString(d, &s.AgentDir)
		case "sessionFile":
			return decodePtr(d, &s.SessionFile, decodeString)
		case "model":
			return decodePtr(d, &s.Model, decodeModel)
		case "thinking":
			return decodePtr(d, &s.Thinking, decodeString)
		case "state":
			return decodeString(d, &s.State)
		case "stateSince":
			return decodePtr(d, &s.StateSince, decodeTime)
		case "attention":
			return decodePtr(d, &s.Attention, decodeAttention)
		case "context":
			return decodeContext(d, &s.Context)
		case "usage":
			return decodeUsage(d, &s.Usage)
		case "rateLimits":
			return decodePtr(d, &s.RateLimits, decodeRateLimits)
		case "tools":
			return decodeTools(d, &s.Tools)
		case "switches":
			return decodeSwitches(d, &s.Switches)
		case "ticket":
			return decodePtr(d, &s.Ticket, decodeTicket)
		case "workflow":
			return decodePtr(d, &s.Workflow, decodeWorkflow)
		case "outputs":
			return decodeSlice(d, &s.Outputs, decodeOutput)
		case "recent":
			return decodeSlice(d, &s.Recent, decodeCall)
		case "contextDetail":
			return decodePtr(d, &s.ContextDetail, decodeContextDetail)
		case "lastRequest":
			return decodePtr(d, &s.LastRequest, decodeAnswer)
		case "startedAt":
			return decodeTime(d, &s.StartedAt)
		case "updatedAt":
			return decodeTime(d, &s.UpdatedAt)
		}
		return false
	})
}

func decodeTerminalID(d *decoder, t *TerminalID) bool {
	return decodeStruct(d, t, func(name []byte) bool {
		switch string(name) {
		case "from":
			return decodeString(d, &t.From)
		case "id":
			return decodeString(d, &t.ID)
		case "instance":
			return decodeString(d, &t.Instance)
		}
		return false
	})
}

func decodeModel(d *decoder, m *Model) bool {
	return decodeStruct(d, m, func(name []byte) bool {
		switch string(name) {
		case "provider":
			return decodeString(d, &m.Provider)
		case "id":
			return decodeString(d, &m.ID)
		case "name":
			return decodeString(d, &m.Name)
		}
		return false
	})
}

func decodeAttention(d *decoder, a *Attention) bool {
	return decodeStruct(d, a, func(name []byte) bool {
		switch string(name) {
		case "kind":
			return decodeString(d, &a.Kind)
		case "since":
			return decodeTime(d, &a.Since)
		case "tool":
			return decodeString(d, &a.Tool)
		}
		return false
	})
}

func decodeContext(d *decoder, c *Context) bool {
	return decodeStruct(d, c, func(name []byte) bool {
		switch string(name) {
		case "tokens":
			return decodePtr(d, &c.Tokens, decodeInt64)
		case "window":
			return decodePtr(d, &c.Window, decodeInt64)
		case "percent":
			return decodePtr(d, &c.Percent, decodeFloat)
		}
		return false
	})
}

func decodeUsage(d *decoder, u *Usage) bool {
	return decodeStruct(d, u, func(name []byte) bool {
		switch string(name) {
		case "input":
			return decodeInt64(d, &u.Input)
		case "output":
			return decodeInt64(d, &u.Output)
		case "cacheRead":
			return decodeInt64(d, &u.CacheRead)
		case "cacheWrite":
			return decodeInt64(d, &u.CacheWrite)
		case "cost":
			return decodePtr(d, &u.Cost, decodeFloat)
		}
		return false
	})
}

func decodeRateLimits(d *decoder, r *RateLimits) bool {
	return decodeStruct(d, r, func(name []byte) bool {
		switch string(name) {
		case "fiveHour":
			return decodePtr(d, &r.FiveHour, decodeRateLimit)
		case "weekly":
			return decodePtr(d, &r.Weekly, decodeRateLimit)
		}
		return false
	})
}

func decodeRateLimit(d *decoder, r *RateLimit) bool {
	return decodeStruct(d, r, func(name []byte) bool {
		switch string(name) {
		case "usedPercent":
			return decodeFloat(d, &r.UsedPercent)
		case "resetsAt":
			return decodePtr(d, &r.ResetsAt, decodeTime)
		}
		return false
	})
}

func decodeTools(d *decoder, t *Tools) bool {
	return decodeStruct(d, t, func(name []byte) bool {
		switch string(name) {
		case "active":
			return decodeInt(d, &t.Active)
		case "total":
			return decodeInt(d, &t.Total)
		}
		return false
	})
}

func decodeSwitches(d *decoder, s *Switches) bool {
	return decodeStruct(d, s, func(name []byte) bool {
		switch string(name) {
		case "tools":
			return decodeSwitched(d, &s.Tools)
		case "skills":
			return decodeSwitched(d, &s.Skills)
		}
		return false
	})
}

func decodeTicket(d *decoder, t *Ticket) bool {
	return decodeStruct(d, t, func(name []byte) bool {
		switch string(name) {
		case "key":
			return decodeString(d, &t.Key)
		case "title":
			return decodeString(d, &t.Title)
		case "url":
			return decodeString(d, &t.URL)
		case "from":
			return decodeString(d, &t.From)
		}
		return false
	})
}

func decodeWorkflow(d *decoder, w *Workflow) bool {
	return decodeStruct(d, w, func(name []byte) bool {
		switch string(name) {
		case "name":
			return decodeString(d, &w.Name)
		case "stages":
			return decodeSlice(d, &w.Stages, decodeString)
		case "current":
			return decodeString(d, &w.Current)
		case "since":
			return decodeString(d, &w.Since)
		case "prs":
			return decodeSlice(d, &w.PRs, decodeRaw)
		case "problem":
			return decodeString(d, &w.Problem)
		}
		return false
	})
}

func decodeOutput(d *decoder, o *Output) bool {
	return decodeStruct(d, o, func(name []byte) bool {
		switch string(name) {
		case "path":
			return decodeString(d, &o.Path)
		case "action":
			return decodeString(d, &o.Action)
		case "at":
			return decodeTime(d, &o.At)
		case "repo":
			return decodePtr(d, &o.Repo, decodeString)
		}
		return false
	})
}

func decodeCall(d *decoder, c *Call) bool {
	return decodeStruct(d, c, func(name []byte) bool {
		switch string(name) {
		case "at":
			return decodeTime(d, &c.At)
		case "tool":
			return decodeString(d, &c.Tool)
		case "action":
			return decodeString(d, &c.Action)
		case "decision":
			return decodeString(d, &c.Decision)
		case "answer":
			return decodeString(d, &c.Answer)
		case "outcome":
			return decodeString(d, &c.Outcome)
		}
		return false
	})
}

func decodeContextDetail(d *decoder, c *ContextDetail) bool {
	return decodeStruct(d, c, func(name []byte) bool {
		switch string(name) {
		case "window":
			return decodePtr(d, &c.Window, decodeInt64)
		case "tokens":
			return decodeInt64(d, &c.Tokens)
		case "parts":
			return decodeSlice(d, &c.Parts, decodeContextPart)
		case "tools":
			return decodeSlice(d, &c.Tools, decodeContextItem)
		case "skills":
			return decodeSlice(d, &c.Skills, decodeContextItem)
		case "files":
			return decodeSlice(d, &c.Files, decodeContextItem)
		}
		return false
	})
}

func decodeContextPart(d *decoder, p *ContextPart) bool {
	return decodeStruct(d, p, func(name []byte) bool {
		switch string(name) {
		case "name":
			return decodeString(d, &p.Name)
		case "tokens":
			return decodeInt64(d, &p.Tokens)
		}
		return false
	})
}

func decodeContextItem(d *decoder, c *ContextItem) bool {
	return decodeStruct(d, c, func(name []byte) bool {
		switch string(name) {
		case "name":
			return decodeString(d, &c.Name)
		case "source":
			return decodeString(d, &c.Source)
		case "tokens":
			return decodeInt64(d, &c.Tokens)
		case "off":
			return decodeBool(d, &c.Off)
		case "inactive":
			return decodeBool(d, &c.Inactive)
		}
		return false
	})
}

func decodeAnswer(d *decoder, a *Answer) bool {
	return decodeStruct(d, a, func(name []byte) bool {
		switch string(name) {
		case "id":
			return decodeString(d, &a.ID)
		case "ok":
			return decodeBool(d, &a.OK)
		case "message":
			return decodeString(d, &a.Message)
		case "at":
			return decodeTime(d, &a.At)
		case "reload":
			return decodePtr(d, &a.Reload, decodeBool)
		case "covers":
			return decodeSlice(d, &a.Covers, decodeString)
		}
		return false
	})
}
