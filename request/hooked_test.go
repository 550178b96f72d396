package request

import (
	"testing"

	"jig/status"
)

func TestHookedAnswer(t *testing.T) {
	h := Hooked{Dropped: "dropped", Idle: "idle", Busy: "busy", Reload: "no reload"}
	yes := true
	off := Outcome{Switches: status.Switches{Tools: map[string]bool{"bash": false}}, Reload: true,
		Answer: status.Answer{ID: "r1", OK: true, Message: "tool bash off, reload when idle", Reload: &yes}}
	got := h.Answer(status.Switches{}, off, false, "a note")
	if got.Message != "tool bash off; dropped; a note; busy; no reload" || got.OK || got.Reload != nil || got.ID != "r1" {
		t.Errorf("switch off and reload: %+v", got)
	}
	// already off before: nothing newly dropped
	prev := status.Switches{Tools: map[string]bool{"bash": false}}
	on := Outcome{Switches: status.Switches{Tools: map[string]bool{"bash": false, "read": true}, Skills: map[string]bool{"s": true}},
		Answer: status.Answer{OK: true, Message: "tool read on"}}
	if got := h.Answer(prev, on, true); got.Message != "tool read on; idle" || !got.OK {
		t.Errorf("switch on: %+v", got)
	}
	skill := Outcome{Switches: status.Switches{Skills: map[string]bool{"s": false}}, Answer: status.Answer{Message: "skill s off"}}
	if got := h.Answer(status.Switches{Skills: map[string]bool{"s": true}}, skill, true); got.Message != "skill s off; dropped; idle" {
		t.Errorf("skill off: %+v", got)
	}
	if off.Answer.Reload == nil || off.Answer.Message != "tool bash off, reload when idle" {
		t.Error("Answer changed the outcome's answer")
	}
}
