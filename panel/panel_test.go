package panel

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"jig/status"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The golden files are shared with herdr/app's JS tests: both views must
// draw the same lines from the same status.
const testdata = "../herdr/app/testdata/"

var now = time.Date(2026, 11, 29, 19, 2, 0, 0, time.UTC)

func load(t *testing.T, name string) *status.Status {
	t.Helper()
	data, err := os.ReadFile(testdata + name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := status.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(testdata+name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(testdata + name)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestFullStatus(t *testing.T) {
	golden(t, "work_full.txt", Lines(load(t, "status_full.json"), now))
}

// Escape sequences (OSC 52, OSC 0, CSI), a C1 CSI, U+202E and markup in the
// model, cwd, paths, ticket, switches, calls and answer: drawn cleaned.
func TestHostileStatus(t *testing.T) {
	golden(t, "work_hostile.txt", Lines(load(t, "status_hostile.json"), now))
}

func TestBareStatus(t *testing.T) {
	s := &status.Status{Session: "s1", State: status.Idle, UpdatedAt: now.Add(-3 * time.Hour)}
	got := strings.Join(Lines(s, now), "\n")
	for _, want := range []string{
		"s1 · updated 3h ago",
		"idle · no model",
		"context ░░░░░░░░░░░░░░░░░░░░ ?  ? / ?",
		"cost ? · tools 0/0",
		"outputs (0)\n  none yet",
		"recent calls\n  none yet",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, absent := range []string{"ticket", "stage", "last request", "off:"} {
		if strings.Contains(got, absent) {
			t.Errorf("%q shown for a bare status:\n%s", absent, got)
		}
	}
}

func TestCaps(t *testing.T) {
	s := &status.Status{Session: "s1", State: status.Busy}
	for range 20 {
		s.Outputs = append(s.Outputs, status.Output{Path: "/w/a.go", Action: status.Changed, At: now})
		s.Recent = append(s.Recent, status.Call{Tool: "read", Outcome: status.OK, At: now})
	}
	got := strings.Join(Lines(s, now), "\n")
	if c := strings.Count(got, "a.go"); c != MaxOutputs {
		t.Errorf("%d outputs shown, want %d", c, MaxOutputs)
	}
	if c := strings.Count(got, " read "); c != MaxRecent {
		t.Errorf("%d calls shown, want %d", c, MaxRecent)
	}
	for _, want := range []string{"… 8 more", "… 12 more"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestFormats(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct{ got, want string }{
		{Bar(f(100)), strings.Repeat("█", BarCells)},
		{Bar(f(250)), strings.Repeat("█", BarCells)},
		{Bar(f(-3)), strings.Repeat("░", BarCells)},
		{Age(now, now.Add(time.Minute)), "0s"},
		{Age(now, now.Add(-59*time.Second)), "59s"},
		{Age(now, now.Add(-47*time.Hour)), "47h"},
		{Age(now, now.Add(-72*time.Hour)), "3d"},
		{RelPath("/w/", "/w/x/y.go"), "x/y.go"},
		{RelPath("/w", "/wx/y.go"), "/wx/y.go"},
		{Fit("abcdef", 4), "abc…"},
		{Fit("ab✓", 3), "ab✓"},
		{Fit("abc", 0), "abc"},
		{Fit("ab文档说明", 7), "ab文档…"},
		{Fit("ab文档", 6), "ab文档"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
