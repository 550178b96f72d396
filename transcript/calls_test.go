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
	if c, p, ok := l.PeekCalls(); !ok || len(c) != 2 || p["b"].Tool != "Edit" || !l.Waiting() {
		t.Errorf("peek: %+v %+v %v", c, p, ok)
	}
	l.Set([]byte(`{"more":[1],"calls":[]}`))
	if _, _, ok := l.PeekCalls(); ok {
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
