package request

import (
	"errors"
	"reflect"
	"testing"

	"jig/status"
)

var have = Available{
	Tools:  []string{"read", "bash", "edit", "write", "grep", "secret"},
	Active: []string{"read", "bash", "edit", "write"},
	Hidden: []string{"secret"},
	Skills: []string{"pdf", "xlsx"},
}

func TestResolve(t *testing.T) {
	tr := true
	tests := []struct {
		name    string
		req     Request
		current status.Switches
		want    Outcome
	}{
		{
			name: "tool off, skill off",
			req:  Request{ID: "r1", Tools: map[string]bool{"bash": false}, Skills: map[string]bool{"pdf": false}},
			want: Outcome{
				Switches: status.Switches{Tools: map[string]bool{"bash": false}, Skills: map[string]bool{"pdf": false}},
				Active:   []string{"read", "edit", "write"}, SkillsOff: []string{"pdf"},
				Answer: status.Answer{ID: "r1", OK: true, Message: "tool bash off, skill pdf off", At: now},
			},
		},
		{
			name:    "on again, kept switches stay",
			req:     Request{ID: "r2", Tools: map[string]bool{"grep": true}, Covers: []string{"r1"}},
			current: status.Switches{Tools: map[string]bool{"bash": false}, Skills: map[string]bool{"pdf": false}},
			want: Outcome{
				Switches: status.Switches{Tools: map[string]bool{"bash": false, "grep": true}, Skills: map[string]bool{"pdf": false}},
				Active:   []string{"read", "edit", "write", "grep"}, SkillsOff: []string{"pdf"},
				Answer: status.Answer{ID: "r2", OK: true, Message: "tool grep on", At: now, Covers: []string{"r1"}},
			},
		},
		{
			name: "unknown names and a hidden tool are refused, the rest applies",
			req: Request{ID: "r3", Tools: map[string]bool{"foo": false, "secret": true, "edit": false},
				Skills: map[string]bool{"nope": true}},
			want: Outcome{
				Switches: status.Switches{Tools: map[string]bool{"edit": false}, Skills: map[string]bool{}},
				Active:   []string{"read", "bash", "write"}, SkillsOff: []string{},
				Answer: status.Answer{ID: "r3", OK: false, At: now,
					Message: "tool edit off; no tool named foo; tool secret is hidden and cannot be turned on; no skill named nope"},
			},
		},
		{
			name: "reload",
			req:  Request{ID: "r4", Reload: true},
			want: Outcome{
				Switches: status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}},
				Active:   []string{"read", "bash", "edit", "write"}, SkillsOff: []string{}, Reload: true,
				Answer: status.Answer{ID: "r4", OK: true, Message: "reload when idle", At: now, Reload: &tr},
			},
		},
		{
			name: "nothing",
			req:  Request{ID: "r5"},
			want: Outcome{
				Switches: status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}},
				Active:   []string{"read", "bash", "edit", "write"}, SkillsOff: []string{},
				Answer: status.Answer{ID: "r5", OK: true, Message: "nothing to change", At: now},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := map[string]bool{}
			for k, v := range tt.current.Tools {
				before[k] = v
			}
			got := Resolve(&tt.req, have, tt.current, now)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve =\n%+v\nwant\n%+v", got, tt.want)
			}
			if tt.current.Tools != nil && !reflect.DeepEqual(tt.current.Tools, before) {
				t.Error("Resolve changed the current switches in place")
			}
		})
	}
}

// A reload or a resume starts from the host's defaults; Apply brings the
// kept switches back, and never turns a hidden tool on.
func TestApplyAfterRestart(t *testing.T) {
	sw := status.Switches{
		Tools:  map[string]bool{"bash": false, "grep": true, "secret": true, "gone": true},
		Skills: map[string]bool{"xlsx": false, "pdf": true, "gone": false},
	}
	active, off := Apply(have, sw)
	if want := []string{"read", "edit", "write", "grep"}; !reflect.DeepEqual(active, want) {
		t.Errorf("active %v, want %v", active, want)
	}
	if want := []string{"xlsx"}; !reflect.DeepEqual(off, want) {
		t.Errorf("skills off %v, want %v", off, want)
	}
}

func TestHandle(t *testing.T) {
	dir := newDir(t)
	kept := status.Switches{Tools: map[string]bool{"bash": false}, Skills: map[string]bool{}}
	if out, err := Handle(dir, "s", have, kept, now); out != nil || err != nil {
		t.Fatalf("nothing waiting: Handle = %+v, %v", out, err)
	}

	r := New(now)
	r.Tools["grep"] = true
	Send(dir, "s", r)
	out, err := Handle(dir, "s", have, kept, now)
	if err != nil || out.Answer.ID != r.ID || !out.Answer.OK ||
		!reflect.DeepEqual(out.Active, []string{"read", "edit", "write", "grep"}) {
		t.Fatalf("good request: Handle = %+v, %v", out, err)
	}

	dir.Ensure(status.RequestsDir)
	writeFile(`{"schema":2,"id":"r9","tools":{"grep":true}}`)(t, Path(dir, "s"))
	out, err = Handle(dir, "s", have, kept, now)
	var bad *BadError
	if !errors.As(err, &bad) || out == nil || out.Answer.ID != "r9" || out.Answer.OK ||
		!reflect.DeepEqual(out.Switches, kept) || !reflect.DeepEqual(out.Active, []string{"read", "edit", "write"}) {
		t.Fatalf("bad request with an id: Handle = %+v, %v", out, err)
	}

	writeFile(`{"schema":1}`)(t, Path(dir, "s"))
	out, err = Handle(dir, "s", have, kept, now)
	if !errors.As(err, &bad) || out != nil {
		t.Fatalf("bad request without an id: Handle = %+v, %v", out, err)
	}
}
