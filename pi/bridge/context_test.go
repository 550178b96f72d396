package bridge

import (
	"testing"

	"jig/status"
)

// /context keeps a tool Pi leaves inactive apart from one a request
// switched off, gives skills their source, and counts Jig's own messages
// as their part.
func TestContextDetailByPlugin(t *testing.T) {
	b, _ := newTestBridge(t)
	handle(t, b, hello("s1"),
		`{"type":"inventory","tools":[{"name":"read","source":"builtin","active":true,"chars":400},`+
			`{"name":"bash","source":"builtin","active":false,"chars":800},{"name":"grep","source":"builtin","active":false,"chars":300},`+
			`{"name":"shelf","source":"shelf","active":true,"chars":200}],"skills":[{"name":"pdf","source":"user","chars":40}]}`)
	b.switches.Tools["bash"] = false
	handle(t, b, `{"type":"context","context":{"systemPrompt":4000,"messages":800,"toolResults":400,"jigMessages":1200}}`)
	d := read(t, b, "s1").ContextDetail
	if d == nil {
		t.Fatal("no contextDetail")
	}
	want := map[string]status.ContextItem{
		"read":  {Name: "read", Source: "builtin", Tokens: 100},
		"bash":  {Name: "bash", Source: "builtin", Tokens: 200, Off: true},
		"grep":  {Name: "grep", Source: "builtin", Tokens: 75, Inactive: true},
		"shelf": {Name: "shelf", Source: "shelf", Tokens: 50},
	}
	for _, it := range d.Tools {
		if it != want[it.Name] {
			t.Errorf("tool %+v, want %+v", it, want[it.Name])
		}
	}
	if len(d.Skills) != 1 || d.Skills[0].Source != "user" {
		t.Errorf("skills %+v, want pdf from user", d.Skills)
	}
	var jig, messages int64 = -1, -1
	for _, p := range d.Parts {
		switch p.Name {
		case "jigMessages":
			jig = p.Tokens
		case "messages":
			messages = p.Tokens
		}
	}
	if jig != 300 || messages != 200 {
		t.Errorf("parts %+v, want jigMessages 300 apart from messages 200", d.Parts)
	}
	if d.Tokens != 1000+150+200+100+300 {
		t.Errorf("tokens %d", d.Tokens)
	}
}
