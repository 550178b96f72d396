package transcript

import (
	"encoding/json"
	"testing"

	"jig/status"
)

func TestOutcomeSettleAndPeek(t *testing.T) {
	calls := []Call{{ID: "a", Outcome: status.OK}, {ID: "b", Outcome: status.Pending}}
	pending := map[string]Pending{"b": {Tool: "Edit"}}
	for id, want := range map[string]string{"a": status.OK, "b": status.Pending, "c": ""} {
		if got := OutcomeOf(calls, pending, id); got != want {
			t.Errorf("outcome of %s: %q, want %q", id, got, want)
		}
	}
	if Settle(calls, "a", status.Error) || Settle(calls, "b", status.Pending) || !Settle(calls, "b", status.Error) || calls[1].Outcome != status.Error {
		t.Errorf("settled: %+v", calls)
	}
	if OutcomeOf(calls, pending, "b") != status.Pending {
		t.Error("a call still waiting for its result is pending, whatever a hook settled")
	}
	state, _ := json.Marshal(struct {
		Calls   []Call             `json:"calls"`
		Pending map[string]Pending `json:"pending"`
		More    []int              `json:"more"`
	}{calls, pending, []int{1}})
	var l Lazy
	l.Set(state)
	for id, want := range map[string]string{"a": status.OK, "b": status.Pending, "c": ""} {
		if got, ok := l.PeekOutcome(id); !ok || got != want || !l.Waiting() {
			t.Errorf("peeked outcome of %s: %q %v, want %q", id, got, ok, want)
		}
	}
	l.Set([]byte(`{"more":[1],"calls":[]}`))
	if _, ok := l.PeekOutcome("a"); ok {
		t.Error("a state that does not begin with its calls was peeked")
	}
	var into struct{ More []int }
	if !l.Take(&into, nil) || l.Waiting() || len(into.More) != 1 || !l.Take(&into, nil) {
		t.Errorf("take: %+v", into)
	}
	l.Set([]byte(`{"more":"x"}`))
	if l.Take(&into, nil) {
		t.Error("a state that does not decode was taken")
	}
}

// Whatever the ids and names a model chose, the outcome read off a state's
// bytes is the one its calls decoded give.
func FuzzPeekOutcome(f *testing.F) {
	f.Add("toolu_01", "call_2", "toolu_01", "Bash", false)
	f.Add("a<b>&c", "a", "a<b>&c", `x{"id":"a",`, true)
	f.Add("é\"q", "", "", "\u0000", false)
	f.Fuzz(func(t *testing.T, a, b, id, tool string, waits bool) {
		calls := []Call{{ID: a, Tool: tool, Outcome: status.OK}, {ID: b, Tool: id, Action: a, Outcome: status.Error},
			{ID: a, Outcome: status.Pending}}
		var pending map[string]Pending
		if waits {
			pending = map[string]Pending{b: {Tool: tool, Path: id}}
		}
		state, err := json.Marshal(struct {
			Calls   []Call             `json:"calls"`
			Pending map[string]Pending `json:"pending"`
			Model   string             `json:"model"`
		}{calls, pending, id})
		if err != nil {
			return
		}
		var decoded struct {
			Calls   []Call             `json:"calls"`
			Pending map[string]Pending `json:"pending"`
		}
		if err := json.Unmarshal(state, &decoded); err != nil {
			t.Fatal(err)
		}
		var l Lazy
		l.Set(state)
		got, ok := l.PeekOutcome(id)
		if want := OutcomeOf(decoded.Calls, decoded.Pending, id); !ok || got != want {
			t.Fatalf("%s: peeked %q (%v), decoded %q", state, got, ok, want)
		}
	})
}
