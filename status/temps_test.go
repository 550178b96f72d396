package status

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRemoveStaleTempsTakesOnlyOldWriteTemps(t *testing.T) {
	d := &Dir{Root: filepath.Join(t.TempDir(), "state")}
	if err := d.Ensure(SessionsDir, RequestsDir); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	old, fresh := now.Add(-TempGrace-time.Second), now.Add(-time.Minute)
	files := map[string]time.Time{
		"sessions/.s1.json5577006791947779410": old,   // left by a killed write: goes
		"requests/.s1.json8674665223082153551": old,   // the same in requests/: goes
		"sessions/.s2.json6129484611666145821": fresh, // a write may be under way: stays
		"sessions/s1.json":                     old,   // a status file: stays
		"sessions/.s1.json":                    old,   // no digits: not a temp, stays
		"sessions/.notes":                      old,   // a stranger: stays
		"sessions/.a":                          old,   // too short to be one: stays
		"requests/.claim-s1-a1b2c3d4e5f6":      old,   // request's claim: not ours, stays
	}
	for name, at := range files {
		p := d.Path(filepath.FromSlash(name))
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	n, err := d.RemoveStaleTemps(now)
	if err != nil || n != 2 {
		t.Fatalf("RemoveStaleTemps = %d, %v; want 2 removed", n, err)
	}
	for name := range files {
		_, err := os.Lstat(d.Path(filepath.FromSlash(name)))
		gone := os.IsNotExist(err)
		if want := name == "sessions/.s1.json5577006791947779410" || name == "requests/.s1.json8674665223082153551"; gone != want {
			t.Errorf("%s: gone %v, want %v", name, gone, want)
		}
	}
}

func TestRemoveStaleTempsWithoutAStateDir(t *testing.T) {
	d := &Dir{Root: filepath.Join(t.TempDir(), "none")}
	if n, err := d.RemoveStaleTemps(time.Now()); n != 0 || err != nil {
		t.Errorf("RemoveStaleTemps on no dir = %d, %v; want 0, nil", n, err)
	}
}
