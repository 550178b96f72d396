package status

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestGoldenFull holds one complete document: every field set, decoded and
// written back byte for byte, so a change to a name, a type or the order
// shows here.
func TestGoldenFull(t *testing.T) {
	data, err := os.ReadFile("testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Errorf("encode(decode(full.json)) differs:\n%s", out)
	}
	assertEveryFieldSet(t, "", reflect.ValueOf(*s))
	if err := s.Validate(); err != nil {
		t.Errorf("full.json is not valid: %v", err)
	}
}

// assertEveryFieldSet fails on any zero field, so the golden file stays
// complete when a field is added.
func assertEveryFieldSet(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t.Errorf("%s is null in full.json", path)
			return
		}
		assertEveryFieldSet(t, path, v.Elem())
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			if v.Interface().(time.Time).IsZero() {
				t.Errorf("%s is not set in full.json", path)
			}
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			assertEveryFieldSet(t, path+"."+jsonName(f), v.Field(i))
		}
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			t.Errorf("%s is empty in full.json", path)
		}
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct {
			for i := range v.Len() {
				assertEveryFieldSetLoose(t, path, v.Index(i))
			}
		}
	case reflect.Bool:
		// false is a value
	default:
		if v.IsZero() {
			t.Errorf("%s is zero in full.json", path)
		}
	}
}

// assertEveryFieldSetLoose checks list items: an optional field must be set
// in at least one item, which assertEveryFieldSet's caller covers by
// examples; here only required fields (no omitempty) must be set.
func assertEveryFieldSetLoose(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if strings.Contains(f.Tag.Get("json"), "omitempty") || f.Type.Kind() == reflect.Pointer || f.Type.Kind() == reflect.Bool {
			continue
		}
		if v.Field(i).IsZero() {
			t.Errorf("%s[].%s is zero in full.json", path, jsonName(f))
		}
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// TestSeedFields pins the schema-1 names the contract lists, with the
// types it gives, plus jig's additions.
func TestSeedFields(t *testing.T) {
	data, err := Encode(&Status{})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"schema": "number", "session": "string", "pid": "number", "cwd": "string",
		"terminal": "null", "terminalFrom": "null", "agentDir": "string", "model": "null",
		"thinking": "null", "state": "string", "context": "object", "usage": "object",
		"tools": "object", "ticket": "null", "workflow": "null", "outputs": "null",
		"recent": "null", "contextDetail": "null", "lastRequest": "null",
		"startedAt": "string", "updatedAt": "string",
		// added to schema 1 by jig
		"terminals": "null", "host": "string", "sessionFile": "null", "switches": "object", "agent": "string",
		"stateSince": "null",
		"attention":  "null", "rateLimits": "null",
	}
	for name, typ := range want {
		v, ok := doc[name]
		if !ok {
			t.Errorf("field %s missing", name)
			continue
		}
		if got := jsonType(v); got != typ {
			t.Errorf("field %s: %s, want %s", name, got, typ)
		}
	}
	for name := range doc {
		if _, ok := want[name]; !ok {
			t.Errorf("field %s is not in the contract's list; add it to docs/status-format.md and here", name)
		}
	}
	for _, sub := range []struct {
		field string
		keys  []string
	}{
		{"context", []string{"tokens", "window", "percent"}},
		{"usage", []string{"input", "output", "cacheRead", "cacheWrite", "cost"}},
		{"tools", []string{"active", "total"}},
	} {
		obj := doc[sub.field].(map[string]any)
		for _, k := range sub.keys {
			if _, ok := obj[k]; !ok {
				t.Errorf("%s.%s missing", sub.field, k)
			}
		}
		if len(obj) != len(sub.keys) {
			t.Errorf("%s has %d keys, want %v", sub.field, len(obj), sub.keys)
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case float64:
		return "number"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "list"
	case bool:
		return "bool"
	}
	return "?"
}

// TestVectors reads the contract's test vectors as a reader must.
func TestVectors(t *testing.T) {
	dir := &Dir{Root: t.TempDir()}
	if err := dir.Ensure(SessionsDir); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file    string
		wantErr string
		check   func(*testing.T, *Status)
	}{
		{"full.json", "", func(t *testing.T, s *Status) {
			if *s.Terminal != "%3" || len(s.Terminals) != 2 || s.Outputs[1].Repo != nil {
				t.Errorf("full.json read wrong: %+v", s)
			}
		}},
		{"minimal.json", "", func(t *testing.T, s *Status) {
			if s.Model != nil || s.Context.Percent != nil || s.Usage.Cost != nil || s.Terminal != nil {
				t.Errorf("minimal.json: absent fields must read as null: %+v", s)
			}
		}},
		{"extra-field.json", "", func(t *testing.T, s *Status) {
			if s.Model.Name != "GPT-5" || !bytes.Contains(s.Raw(), []byte(`"sandbox"`)) {
				t.Errorf("extra-field.json: known fields lost or raw document not kept")
			}
		}},
		{"future-schema.json", "schema 2, this jig reads schema 1", nil},
		{"truncated.json", "unexpected end of JSON input", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			path := dir.Path(SessionsDir, tc.file)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := readStatus(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
}

func TestNormalize(t *testing.T) {
	repo := "/r"
	s := &Status{Terminal: ptr("t7"), TerminalFrom: ptr("HC_TERMINAL_ID"),
		Context: Context{Tokens: ptr[int64](50), Window: ptr[int64](200)}}
	for i := range 60 {
		s.Outputs = append(s.Outputs, Output{Path: "a", Action: Created}, Output{Path: "b", Action: Changed, Repo: &repo})
		_ = i
	}
	for range 20 {
		s.Recent = append(s.Recent, Call{Tool: "read", Outcome: OK})
	}
	s.Normalize()
	if s.Schema != 1 || s.State != Idle {
		t.Errorf("defaults: schema %d state %q", s.Schema, s.State)
	}
	if len(s.Outputs) != 100 || len(s.Recent) != 15 {
		t.Errorf("limits: %d outputs, %d recent", len(s.Outputs), len(s.Recent))
	}
	if *s.Context.Percent != 25 {
		t.Errorf("percent %v", *s.Context.Percent)
	}
	if len(s.Terminals) != 1 || s.Terminals[0] != (TerminalID{From: "HC_TERMINAL_ID", ID: "t7"}) {
		t.Errorf("terminal not listed in terminals: %v", s.Terminals)
	}
	data, _ := Encode(s)
	for _, empty := range []string{`"tools": {}`, `"skills": {}`} {
		if !bytes.Contains(data, []byte(empty)) {
			t.Errorf("want %s in %s", empty, data)
		}
	}
}

func TestValidate(t *testing.T) {
	good := func() *Status { s := &Status{Session: "s", PID: 1}; s.Normalize(); return s }
	for name, broken := range map[string]func(*Status){
		"schema":  func(s *Status) { s.Schema = 2 },
		"session": func(s *Status) { s.Session = "" },
		"pid":     func(s *Status) { s.PID = -4 },
		"state":   func(s *Status) { s.State = "sleeping" },
		"action":  func(s *Status) { s.Outputs = []Output{{Path: "p", Action: "deleted"}} },
		"outcome": func(s *Status) { s.Recent = []Call{{Tool: "t", Outcome: "maybe"}} },
		"attention kind": func(s *Status) {
			s.Attention = &Attention{Kind: "bored", Since: time.Unix(1, 0)}
		},
		"attention tool value": func(s *Status) {
			s.Attention = &Attention{Kind: AttentionPermission, Since: time.Unix(1, 0), Tool: "rm -rf /"}
		},
		"attention tool long": func(s *Status) {
			s.Attention = &Attention{Kind: AttentionPermission, Since: time.Unix(1, 0), Tool: strings.Repeat("t", MaxName+1)}
		},
		"rate limit": func(s *Status) { s.RateLimits = &RateLimits{Weekly: &RateLimit{UsedPercent: -1}} },
	} {
		s := good()
		broken(s)
		if s.Validate() == nil {
			t.Errorf("%s: broken status validated", name)
		}
	}
	if err := good().Validate(); err != nil {
		t.Errorf("good status: %v", err)
	}
}

// An attention whose writer left since out keeps the time its wait began
// while the same wait goes on, and starts anew with another kind or tool.
func TestAttentionSince(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	t0 := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	write := func(at time.Time, a *Attention) *Status {
		t.Helper()
		s := &Status{Session: "s", PID: os.Getpid(), State: Busy, Attention: a}
		if _, err := d.Write(s, at); err != nil {
			t.Fatal(err)
		}
		got, err := d.Read("s")
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, step := range []struct {
		at    time.Time
		a     *Attention
		since time.Time
	}{
		{t0, &Attention{Kind: AttentionPermission, Tool: "bash"}, t0},
		{t0.Add(time.Second), &Attention{Kind: AttentionPermission, Tool: "bash"}, t0},
		{t0.Add(2 * time.Second), &Attention{Kind: AttentionPermission, Tool: "edit"}, t0.Add(2 * time.Second)},
		{t0.Add(3 * time.Second), &Attention{Kind: AttentionQuestion, Tool: "edit"}, t0.Add(3 * time.Second)},
		{t0.Add(4 * time.Second), &Attention{Kind: AttentionQuestion, Tool: "edit", Since: t0}, t0},
	} {
		got := write(step.at, step.a)
		if got.Attention == nil || !got.Attention.Since.Equal(step.since) {
			t.Errorf("at %s: attention %+v, want since %s", step.at, got.Attention, step.since)
		}
	}
	if got := write(t0.Add(5*time.Second), nil); got.Attention != nil {
		t.Errorf("a cleared attention reads back as %+v", got.Attention)
	}
}

func ptr[T any](v T) *T { return &v }

// FuzzRead: whatever a status file holds, reading it and picking it for a
// terminal never panics, and what is found names the terminal.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"full.json", "minimal.json", "extra-field.json", "future-schema.json", "truncated.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	d := &Dir{Root: f.TempDir()}
	if err := d.Ensure(SessionsDir); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(d.SessionPath("s"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		readStatus(d.SessionPath("s"))
		Decode(data)
		s, err := d.ForTerminal("%3", Liveness{})
		if err == nil && s != nil && !s.HasTerminal("%3") {
			t.Fatalf("found a session not in %%3: %+v", s)
		}
	})
}

// Both agents' windows land in the same two slots, by their length.
func TestRateLimitsWindow(t *testing.T) {
	var r RateLimits
	if !r.Window(FiveHourMinutes, 42, 1893466800) || !r.Window(WeeklyMinutes, 7.5, 0) {
		t.Fatal("a five-hour or weekly window not kept")
	}
	if r.Window(60, 10, 0) || r.Window(FiveHourMinutes, -1, 0) {
		t.Error("an hour's window, or a negative percent, kept")
	}
	if r.FiveHour.UsedPercent != 42 || !r.FiveHour.ResetsAt.Equal(time.Date(2030, 1, 1, 3, 0, 0, 0, time.UTC)) ||
		r.Weekly.UsedPercent != 7.5 || r.Weekly.ResetsAt != nil {
		t.Errorf("windows %+v %+v", r.FiveHour, r.Weekly)
	}
}
