package agents

import "testing"

func TestRegisterRefusesDuplicatesAndBlanks(t *testing.T) {
	if err := Register(Agent{ID: "t-one", Label: "One"}); err != nil {
		t.Fatal(err)
	}
	if err := Register(Agent{ID: "t-one", Label: "Again"}); err == nil {
		t.Fatal("a second t-one was taken")
	}
	if err := Register(Agent{ID: "t-two"}); err == nil {
		t.Fatal("an agent without a label was taken")
	}
	if got := Label("t-one"); got != "One" {
		t.Fatalf("Label(t-one) = %q", got)
	}
	if got := Label("nobody"); got != "the agent" {
		t.Fatalf("Label(nobody) = %q", got)
	}
}
