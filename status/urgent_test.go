package status

import "testing"

func TestUrgentPrefersAWaitThenBusy(t *testing.T) {
	idle := &Status{Session: "i", State: Idle}
	busy := &Status{Session: "b", State: Busy}
	wait := &Status{Session: "w", State: Busy, Attention: &Attention{Kind: AttentionQuestion}}
	if got := Urgent([]*Status{idle, busy, nil, wait, busy}); got != wait {
		t.Errorf("want the wait, got %v", got)
	}
	if got := Urgent([]*Status{idle, busy}); got != busy {
		t.Errorf("want busy, got %v", got)
	}
	if Urgent(nil) != nil {
		t.Error("none of none")
	}
}
