package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"jig/internal/fixtures"
	"jig/status"
)

// expected is what testdata/count.py, an independent reading written from
// Pi's TypeScript, prints for a file (kept in testdata/expected/).
type expected struct {
	Entries       int                  `json:"entries"`
	Bad           []int                `json:"bad"`
	Leaf          string               `json:"leaf"`
	Model         []string             `json:"model"`
	Thinking      string               `json:"thinking"`
	Usage         map[string]int64     `json:"usage"`
	Cost          *float64             `json:"cost"`
	ContextTokens *int64               `json:"contextTokens"`
	Outputs       [][3]json.RawMessage `json:"outputs"`
	Recent        [][3]json.RawMessage `json:"recent"`
}

// TestTranscripts reads every transcript fixture (the project's own, and
// the extra corpus when JIG_PI_SESSIONS names it) and holds the result to
// what testdata/count.py says of the same file.
func TestTranscripts(t *testing.T) {
	for _, f := range fixtures.All(t) {
		t.Run(f.Name, func(t *testing.T) {
			want := readExpected(t, f.Name)
			r := NewReader(f.Path)
			if err := r.Update(); err != nil {
				t.Fatal(err)
			}
			checkDerived(t, r.Derive(nil), r.BadLines(), want)
		})
	}
}

// readExpected is testdata/expected/NAME.json: every fixture has one, made
// by count.py (internal/record writes those of the recordings).
func readExpected(t *testing.T, name string) *expected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "expected", name+".json"))
	if err != nil {
		t.Fatalf("%v: run testdata/count.py on the transcript and keep its answer there", err)
	}
	var want expected
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return &want
}

func checkDerived(t *testing.T, d *Derived, bad []BadLine, want *expected) {
	t.Helper()
	if d.Entries != want.Entries || d.Leaf != want.Leaf {
		t.Errorf("entries %d leaf %s, want %d %s", d.Entries, d.Leaf, want.Entries, want.Leaf)
	}
	var badLines []int
	for _, b := range bad {
		badLines = append(badLines, b.Line)
	}
	if d.Skipped != len(want.Bad) || !equalInts(badLines, want.Bad) {
		t.Errorf("skipped lines %v, want %v", badLines, want.Bad)
	}
	if d.Model == nil || d.Model.Provider != want.Model[0] || d.Model.ID != want.Model[1] {
		t.Errorf("model %+v, want %v", d.Model, want.Model)
	}
	if d.Thinking != want.Thinking {
		t.Errorf("thinking %q, want %q", d.Thinking, want.Thinking)
	}
	u := d.Usage
	if u.Input != want.Usage["input"] || u.Output != want.Usage["output"] || u.CacheRead != want.Usage["cacheRead"] || u.CacheWrite != want.Usage["cacheWrite"] {
		t.Errorf("usage %+v, want %v", u, want.Usage)
	}
	if (u.Cost == nil) != (want.Cost == nil) || u.Cost != nil && math.Abs(*u.Cost-*want.Cost) > 1e-9 {
		t.Errorf("cost %v, want %v", ptrStr(u.Cost), ptrStr(want.Cost))
	}
	if (d.ContextTokens == nil) != (want.ContextTokens == nil) || d.ContextTokens != nil && *d.ContextTokens != *want.ContextTokens {
		t.Errorf("context tokens %v, want %v", ptrStr(d.ContextTokens), ptrStr(want.ContextTokens))
	}
	// the status file keeps the newest 50 outputs outside a repo
	want.Outputs = want.Outputs[:min(len(want.Outputs), status.MaxOutputsPerKind)]
	if len(d.Outputs) != len(want.Outputs) {
		t.Errorf("%d outputs, want %d", len(d.Outputs), len(want.Outputs))
	}
	for i := 0; i < len(d.Outputs) && i < len(want.Outputs); i++ {
		o, w := d.Outputs[i], want.Outputs[i]
		var path, action string
		var at int64
		json.Unmarshal(w[0], &path)
		json.Unmarshal(w[1], &action)
		json.Unmarshal(w[2], &at)
		if o.Path != path || o.Action != action || o.At.UnixMilli() != at || o.Repo != nil {
			t.Errorf("output %d: %s %s %d, want %s %s %d", i, o.Path, o.Action, o.At.UnixMilli(), path, action, at)
		}
	}
	if len(d.Recent) != len(want.Recent) {
		t.Errorf("%d recent calls, want %d", len(d.Recent), len(want.Recent))
	}
	for i := 0; i < len(d.Recent) && i < len(want.Recent); i++ {
		c, w := d.Recent[i], want.Recent[i]
		var tool, outcome string
		var at int64
		json.Unmarshal(w[0], &tool)
		json.Unmarshal(w[1], &outcome)
		json.Unmarshal(w[2], &at)
		if c.Tool != tool || c.Outcome != outcome || c.At.UnixMilli() != at {
			t.Errorf("recent %d: %s %s %d, want %s %s %d", i, c.Tool, c.Outcome, c.At.UnixMilli(), tool, outcome, at)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func ptrStr[T any](p *T) any {
	if p == nil {
		return "null"
	}
	return *p
}

// TestFixturesCoverEveryCase: the project's own fixtures, without any
// extra corpus, hold every case the checks above and in cmd/jig look at,
// so none of them passes for want of a file that exercises it.
func TestFixturesCoverEveryCase(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range fixtures.Own(t) {
		raw, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f.Path)
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		d, want := r.Derive(nil), readExpected(t, f.Name)
		seen[fmt.Sprintf("format v%d", d.Header.Version)] = true
		for _, kind := range []string{"compaction", "model_change", "thinking_level_change", "session_info", "branch_summary"} {
			if bytes.Contains(raw, []byte(`"type":"`+kind+`"`)) {
				seen[kind] = true
			}
		}
		for _, b := range r.BadLines() {
			seen["bad line: "+b.Reason] = true
		}
		seen["an unfinished last line"] = seen["an unfinished last line"] || r.Unread() > 0
		seen["cost null"] = seen["cost null"] || want.Cost == nil
		seen["a cost"] = seen["a cost"] || want.Cost != nil
		seen["context null"] = seen["context null"] || want.ContextTokens == nil
		seen["a context"] = seen["a context"] || want.ContextTokens != nil
		seen["over 50 outputs"] = seen["over 50 outputs"] || len(want.Outputs) > status.MaxOutputsPerKind
		seen["15 recent calls"] = seen["15 recent calls"] || len(want.Recent) == 15
		seen["a transcript of 1 MiB or more"] = seen["a transcript of 1 MiB or more"] || len(raw) >= 1<<20
		for _, o := range d.Outputs {
			seen["output "+o.Action] = true
		}
		for _, c := range d.Recent {
			seen["call "+c.Tool+" "+c.Outcome] = true
		}
		if f.Name == "pi-0.73.1" || f.Name == "pi-1.6.0" {
			seen["recorded "+f.Name] = true
		}
	}
	for _, c := range []string{"format v1", "format v2", "format v3", "recorded pi-0.73.1", "recorded pi-1.6.0",
		"compaction", "model_change", "thinking_level_change", "session_info", "branch_summary",
		"bad line: not one JSON object", "bad line: line too long", "an unfinished last line",
		"cost null", "a cost", "context null", "a context", "over 50 outputs", "15 recent calls",
		"a transcript of 1 MiB or more", "output created", "output changed",
		"call read ok", "call write ok", "call edit ok", "call edit error",
		"call bash ok", "call bash error", "call bash pending"} {
		if !seen[c] {
			t.Errorf("no fixture has %s", c)
		}
	}
}
