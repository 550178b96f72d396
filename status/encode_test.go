package status

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"
)

// asMarshalIndent says how encodeFast differs from json.MarshalIndent on s.
func asMarshalIndent(s *Status) string {
	want, err := json.MarshalIndent(s, "", "  ")
	got, ok := encodeFast(s)
	switch {
	case !ok && err != nil:
		return ""
	case !ok && (s.Workflow == nil || len(s.Workflow.PRs) == 0):
		return "declined what MarshalIndent writes"
	case !ok:
		return ""
	case err != nil:
		return "wrote what MarshalIndent refuses: " + err.Error()
	case !bytes.Equal(got, append(want, '\n')):
		return "wrote\n" + string(got) + "\nwhere MarshalIndent writes\n" + string(want)
	}
	return ""
}

func TestEncodeAsMarshalIndent(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 5, time.FixedZone("", -90*60))
	text := "a\"\\/<>&\b\f\n\r\t\x00\x1f\x7f é\u2028\u2029\xff\xc3 end"
	yes := true
	full := realistic("s", 1, "t1", 5)
	full.RateLimits = &RateLimits{FiveHour: &RateLimit{UsedPercent: 1e-7, ResetsAt: &at}, Weekly: &RateLimit{UsedPercent: 1e21}}
	full.Attention = &Attention{Kind: AttentionPermission, Since: at, Tool: text}
	full.LastRequest = &Answer{ID: "r", Message: text, At: at, Reload: &yes, Covers: []string{"a", text}}
	full.Switches = Switches{Tools: map[string]bool{text: true, "b": false, "a": true}, Skills: map[string]bool{}}
	full.Workflow = &Workflow{Name: text, Stages: []string{}, PRs: []json.RawMessage{}}
	full.ContextDetail = &ContextDetail{Parts: []ContextPart{{Name: text, Tokens: -1}},
		Tools: []ContextItem{{Name: "t", Source: "s", Off: true, Inactive: true}}, Skills: []ContextItem{}}
	cost := -0.0
	full.Usage.Cost = &cost
	var filledOne Status
	if err := json.Unmarshal(filled(t), &filledOne); err != nil {
		t.Fatal(err)
	}
	nan, early, far := *full, *full, *full
	nan.Context.Percent = ptr(math.NaN())
	early.StartedAt = time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)
	far.Attention = &Attention{Since: time.Date(2030, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))}
	for name, s := range map[string]*Status{"zero": {}, "realistic": full, "filled": &filledOne, "NaN": &nan,
		"year -1": &early, "zone +24h": &far} {
		if diff := asMarshalIndent(s); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
	if _, ok := encodeFast(&nan); ok {
		t.Error("encodeFast wrote a NaN")
	}
}

// Whatever status a document decodes to, encodeFast writes what
// json.MarshalIndent writes, or leaves it to MarshalIndent when the status
// holds raw JSON (a workflow's PRs).
func FuzzEncodeFast(f *testing.F) {
	addEncoded(f)
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Status
		if json.Unmarshal(data, &s) != nil {
			return
		}
		if diff := asMarshalIndent(&s); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

// A string (any bytes, not only UTF-8) and a float are written as
// json.Marshal writes them.
func FuzzEncodeScalars(f *testing.F) {
	f.Add("a\"\\<>&\u2028\xff\x00", 1e-7)
	f.Add("", 1e21)
	f.Add("é\t", -0.0)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		var e encoder
		e.str(s)
		if want, _ := json.Marshal(s); !bytes.Equal(e.b, want) {
			t.Fatalf("%q: wrote %s, Marshal %s", s, e.b, want)
		}
		e = encoder{}
		e.float(x)
		want, err := json.Marshal(x)
		if e.failed != (err != nil) || !e.failed && !bytes.Equal(e.b, want) {
			t.Fatalf("%v: wrote %s (failed %v), Marshal %s (%v)", x, e.b, e.failed, want, err)
		}
	})
}
