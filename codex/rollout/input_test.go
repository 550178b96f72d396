package rollout

import (
	"os"
	"path/filepath"
	"testing"

	"jig/status"
)

// fileChange is an item_completed line of a FileChange call with the
// given changes (JSON), as Codex 0.169.0 writes it.
func fileChange(id, changes string) string {
	return `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"` + id +
		`","status":"completed","changes":` + changes + `}}}` + "\n"
}

// withLines is the real fixture with lines appended.
func withLines(t *testing.T, lines ...string) *Reader {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		data = append(data, l...)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, data, 0o600)
	return read(t, path)
}

// TestRolloutLinesAreInput: a change with an empty path is no output (the
// session's folder is not "changed"), and a rate limit's used_percent
// outside 0–100 is refused (the earlier window stands).
func TestRolloutLinesAreInput(t *testing.T) {
	r := withLines(t,
		fileChange("c1", `{"":{"type":"update"},"./":{"type":"add"}}`),
		`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":12.5,"window_minutes":300,"resets_at":1796119600}}}}`+"\n",
		`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":1e308,"window_minutes":300},"secondary":{"used_percent":-3,"window_minutes":10080}}}}`+"\n",
		`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":100.5,"window_minutes":300}}}}`+"\n",
	)
	for _, o := range r.Derive(nil).Outputs {
		if o.Path == "/work/shop" || o.Path == "" {
			t.Errorf("an empty path is listed as %+v", o)
		}
	}
	rl := r.RateLimits()
	if rl == nil || rl.FiveHour == nil || rl.FiveHour.UsedPercent != 12.5 || rl.Weekly != nil {
		t.Errorf("rate limits %+v, want the 12.5%% window only", rl)
	}
}

// TestCreatedThenDeletedIsNoOutput: a file the session added and then
// deleted is not an output; one moved away is listed under its new path,
// still created; a file that was there before and is deleted stays as it
// was listed (changed).
func TestCreatedThenDeletedIsNoOutput(t *testing.T) {
	r := withLines(t,
		fileChange("c1", `{"/work/shop/tmp.txt":{"type":"add"},"/work/shop/a.txt":{"type":"add"},"/work/shop/old.txt":{"type":"update"}}`),
		fileChange("c2", `{"/work/shop/tmp.txt":{"type":"delete"},"/work/shop/notes.txt":{"type":"delete"},"/work/shop/old.txt":{"type":"delete"}}`),
		fileChange("c3", `{"/work/shop/a.txt":{"type":"update","move_path":"/work/shop/b.txt"}}`),
	)
	got := map[string]string{}
	for _, o := range r.Derive(nil).Outputs {
		got[o.Path] = o.Action
	}
	want := map[string]string{"/work/shop/b.txt": status.Created, "/work/shop/old.txt": status.Changed}
	if len(got) != len(want) || got["/work/shop/b.txt"] != status.Created || got["/work/shop/old.txt"] != status.Changed {
		t.Errorf("outputs %v, want %v", got, want)
	}
	gone := r.Gone()
	for _, p := range []string{"/work/shop/tmp.txt", "/work/shop/notes.txt", "/work/shop/a.txt"} {
		found := false
		for _, g := range gone {
			found = found || g == p
		}
		if !found {
			t.Errorf("%s is not among the gone %v", p, gone)
		}
	}
	// read on from a cursor: the same
	data, err := r.MarshalCursor()
	if err != nil {
		t.Fatal(err)
	}
	r2, err := RestoreReader(r.Path(), data)
	if err != nil || len(r2.Gone()) != len(gone) {
		t.Errorf("restored: %v, gone %v", err, r2.Gone())
	}
}
