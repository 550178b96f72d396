package replay

import (
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"jig/render"
	"jig/status"
)

// Print shows the status line at each entry that changes it and the Work
// panel after the first turn and at the end; a signal stops it, as a
// failure of the demo's own.
func TestPrint(t *testing.T) {
	d := newDemo(t, map[string]string{"HOME": t.TempDir()})
	var out strings.Builder
	if err := d.Print(Show{Out: &out, Preset: render.PresetPlain, Kept: true}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"replayed entry by entry", "in terminal jig-demo (as if HC_TERMINAL_ID=jig-demo)",
		"The Work panel after the first turn (jig panel --terminal jig-demo):", "The Work panel at the end:",
		"The status file stays in JIG_STATE_DIR"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if rows := len(regexp.MustCompile(`(?m)^ +\d+ +\d+\.\d\ds `).FindAllString(text, -1)); rows < 5 || rows > 55 {
		t.Errorf("%d status lines, want one per change (at most one per entry)", rows)
	}

	stop := make(chan os.Signal, 1)
	stop <- syscall.SIGTERM
	err := d.Print(Show{Out: &out, Preset: render.PresetPlain, Stop: stop})
	if err == nil || err.Error() != "stopped: terminated" {
		t.Errorf("a signal: %v, want stopped: terminated", err)
	}
}

// PrintLive runs until a signal, says so, and leaves no file.
func TestPrintLive(t *testing.T) {
	d := newDemo(t, map[string]string{"HOME": t.TempDir()})
	stop := make(chan os.Signal, 1)
	var out strings.Builder
	lines := 0
	sh := Show{Out: &countingWriter{&out, func() {
		if lines++; lines == 10 {
			stop <- syscall.SIGINT
		}
	}}, Preset: render.PresetPlain, Stop: stop}
	if err := PrintLive([]*Demo{d}, sh, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "\nStopped (interrupt); the demo's status files are removed.\n") {
		t.Errorf("the end of:\n%s", out.String())
	}
	if left, _ := os.ReadDir(d.Dir.Path(status.SessionsDir)); len(left) != 0 {
		t.Errorf("after a stop, sessions/ holds %v, want nothing", left)
	}
}

// countingWriter calls each after every write.
type countingWriter struct {
	w    *strings.Builder
	each func()
}

func (c *countingWriter) Write(p []byte) (int, error) {
	defer c.each()
	return c.w.Write(p)
}
