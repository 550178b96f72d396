package request

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/status"
)

// TakeKept gives keep exactly the request it takes: a request sent while
// keep runs is merged into nothing and lost by nobody, it waits for the
// next take. keep's error leaves the request waiting.
func TestTakeKept(t *testing.T) {
	dir := newDir(t)
	first := New(now)
	first.Tools["a"] = false
	if _, err := Send(dir, "s", first); err != nil {
		t.Fatal(err)
	}
	if _, _, err := TakeKept(dir, "s", now, func(*Request) error { return errors.New("not now") }); err == nil {
		t.Fatal("keep's error did not come back")
	}
	if p, _ := Pending(dir, "s"); p == nil || p.ID != first.ID {
		t.Fatalf("after keep's error: %+v, want the request waiting", p)
	}
	second := New(now)
	second.Tools["b"] = false
	var wg sync.WaitGroup
	var kept *Request
	taken, _, err := TakeKept(dir, "s", now, func(r *Request) error {
		kept = r
		wg.Go(func() { Send(dir, "s", second) }) // blocks on the lock until the take is done
		return nil
	})
	wg.Wait()
	if err != nil || taken == nil || kept != taken || taken.ID != first.ID || len(taken.Tools) != 1 {
		t.Fatalf("taken %+v, kept %+v, %v", taken, kept, err)
	}
	if p, _ := Pending(dir, "s"); p == nil || p.ID != second.ID || len(p.Tools) != 1 || len(p.Covers) != 0 {
		t.Errorf("the request sent meanwhile: %+v, want it waiting alone", p)
	}
}

// A bad request is claimed and answered without keep.
func TestTakeKeptBad(t *testing.T) {
	dir := newDir(t)
	dir.Ensure(status.RequestsDir)
	os.WriteFile(Path(dir, "s"), []byte(`{"schema":1,"id":"r1","tools":{"a":"off"}}`), 0o600)
	req, ans, err := TakeKept(dir, "s", now, func(*Request) error { t.Error("keep called for a bad request"); return nil })
	if req != nil || ans == nil || ans.ID != "r1" || ans.OK || !errors.As(err, new(*BadError)) {
		t.Errorf("%+v %+v %v", req, ans, err)
	}
	if _, err := os.Lstat(Path(dir, "s")); err == nil {
		t.Error("the bad request stayed")
	}
}

// Past 64 switched names a request is answered ok:false, the rest applied.
func TestResolveRefusesPastTheLimit(t *testing.T) {
	cur := map[string]bool{}
	var have []string
	for i := range status.MaxSwitches + 3 {
		name := fmt.Sprintf("t%02d", i)
		have = append(have, name)
		if i < status.MaxSwitches-1 {
			cur[name] = false
		}
	}
	req := New(now)
	req.Tools = map[string]bool{"t00": true, "t63": false, "t64": false, "t65": false}
	out := Resolve(req, Available{Tools: have}, status.Switches{Tools: cur, Skills: map[string]bool{}}, now)
	if out.Answer.OK || len(out.Switches.Tools) != status.MaxSwitches || !out.Switches.Tools["t00"] || out.Switches.Tools["t63"] {
		t.Errorf("answer %+v, %d switches", out.Answer, len(out.Switches.Tools))
	}
	for _, want := range []string{"tool t00 on, tool t63 off", "tool t64: a session keeps at most 64 switched tools", "tool t65: a session keeps"} {
		if !strings.Contains(out.Answer.Message, want) {
			t.Errorf("answer %q, want %q in it", out.Answer.Message, want)
		}
	}
}

// Kept.Save keeps what else the file holds: an agent's own fields.
func TestKeptSaveKeepsOtherFields(t *testing.T) {
	k := Kept{Dir: newDir(t), Folder: "agent-switches"}
	k.Dir.Ensure(k.Folder)
	os.WriteFile(k.path("s"), []byte(`{"tools":{"x":false},"model":"m1","window":200000}`), 0o600)
	if err := k.Save("s", status.Switches{Tools: map[string]bool{"y": false}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(k.path("s"))
	var got map[string]any
	json.Unmarshal(data, &got)
	if got["model"] != "m1" || got["window"] != 200000.0 || fmt.Sprint(got["tools"]) != "map[y:false]" || fmt.Sprint(got["skills"]) != "map[]" {
		t.Errorf("saved %s", data)
	}
	if sw, err := k.Load("s"); err != nil || len(sw.Tools) != 1 || sw.Tools["y"] {
		t.Errorf("loaded %v, %v", sw, err)
	}
}

// Prune removes switches not used for KeptFor, but a running session's
// (its status file is there), however old.
func TestKeptPruneSparesRunningSessions(t *testing.T) {
	k := Kept{Dir: newDir(t), Folder: "agent-switches"}
	sw := status.Switches{Tools: map[string]bool{"Bash": false}}
	for _, s := range []string{"running", "gone", "recent"} {
		if err := k.Save(s, sw); err != nil {
			t.Fatal(err)
		}
	}
	old := now.Add(-KeptFor - time.Hour)
	os.Chtimes(k.path("running"), old, old)
	os.Chtimes(k.path("gone"), old, old)
	k.Dir.Ensure(status.SessionsDir)
	os.WriteFile(k.Dir.SessionPath("running"), []byte("{}"), 0o600)
	k.Prune(now)
	for s, want := range map[string]bool{"running": true, "gone": false, "recent": true} {
		if _, err := os.Stat(k.path(s)); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", s, err == nil, want)
		}
	}
}
