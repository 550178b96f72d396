package transcript

import (
	"fmt"
	"testing"

	"jig/status"
)

func TestWrittenOutputs(t *testing.T) {
	repo := "/w"
	files := map[string]Written{"/w/b": {At: 2000}, "/w/a": {Created: true, At: 2000}, "/w/c": {At: 1000}}
	got := WrittenOutputs(files, func(string) *string { return &repo })
	want := []string{"/w/a created", "/w/b changed", "/w/c changed"} // newest first, then by path
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, o := range got {
		if o.Path+" "+o.Action != want[i] || o.Repo == nil || *o.Repo != repo || o.At != MsTime(files[o.Path].At) {
			t.Errorf("%d: %+v, want %s", i, o, want[i])
		}
	}
	many := map[string]Written{}
	for i := range status.MaxOutputsPerKind + 5 {
		many[fmt.Sprint("/f", i)] = Written{At: int64(i + 1)}
	}
	if got := WrittenOutputs(many, nil); len(got) != status.MaxOutputsPerKind || got[0].Path != fmt.Sprint("/f", status.MaxOutputsPerKind+4) {
		t.Errorf("over the limit: %d kept, first %+v", len(got), got[0])
	}
	if got := WrittenOutputs(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("none: %#v, want an empty list", got)
	}
	if !MsTime(0).IsZero() {
		t.Error("MsTime(0) is not the zero time")
	}
}
