package peer

import (
	"testing"

	"jig/agents"
)

func TestMustRegisterKeepsOrderAndRefusesTwins(t *testing.T) {
	one := Agent{Agent: agents.Agent{ID: "t-peer-one", Label: "One"}, Name: "t-one"}
	two := Agent{Agent: agents.Agent{ID: "t-peer-two", Label: "Two"}} // its command is its own
	MustRegister(one, two)
	if a, ok := agents.Lookup("t-peer-one"); !ok || a.Label != "One" {
		t.Fatalf("t-peer-one is not in the registry: %+v %v", a, ok)
	}
	all := All()
	if len(all) != 2 || all[0].Name != "t-one" || all[1].ID != "t-peer-two" {
		t.Fatalf("All() = %+v, want one then two", all)
	}
	mustPanic(t, "a second `jig t-one`", func() {
		MustRegister(Agent{Agent: agents.Agent{ID: "t-peer-three", Label: "Three"}, Name: "t-one"})
	})
	mustPanic(t, "a second id", func() { MustRegister(Agent{Agent: agents.Agent{ID: "t-peer-two", Label: "Again"}}) })
	if len(All()) != 2 {
		t.Fatalf("a refused agent was kept: %+v", All())
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s was taken", what)
		}
	}()
	f()
}
