package replay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"jig/panel"
	"jig/render"
	"jig/status"
)

// MaxPause caps the pause between two entries that a person watches, so
// the line changes while they look.
const MaxPause = 120 * time.Millisecond

// stopped is a signal that stopped the replay.
type stopped struct{ sig os.Signal }

func (s stopped) Error() string { return fmt.Sprintf("stopped: %v", s.sig) }

// Show is how the demo shows what a status line and the Work panel show
// of the session, at each entry that changes them.
type Show struct {
	Out     io.Writer
	Preset  string // the status line's preset (render.Presets)
	Options render.PresetOptions
	Stop    <-chan os.Signal // a signal stops the replay before the next entry
	Watched bool             // a person watches: Print pauses as recorded, up to MaxPause
	Kept    bool             // the status file stays after Print (JIG_STATE_DIR)
}

// Print replays the session once and prints its status line at each entry
// that changes it, and the Work panel after the first turn and at the end.
func (d *Demo) Print(sh Show) error {
	w := sh.Out
	fmt.Fprintf(w, "jig demo: a Pi 1.6.0 session the project recorded, replayed entry by entry\n")
	fmt.Fprintf(w, "  session     %s in terminal %s%s\n", render.Clean(d.Session), render.Clean(d.Terminal), d.As)
	fmt.Fprintf(w, "  transcript  %s\n", render.Clean(d.File))
	fmt.Fprintf(w, "  status file %s\n\n", render.Clean(d.Dir.SessionPath(d.Session)))
	fmt.Fprintf(w, "The status line (tmux: jig session for-terminal \"#{pane_id}\" --preset tmux), at each entry that changes it:\n")
	fmt.Fprintf(w, "  line   time  entry\n")
	line, turns := sh.changes(), 0
	var last Step
	err := d.Once(func(gap time.Duration) error {
		if !sh.Watched {
			gap = 0 // a pipe or a test does not wait
		}
		return sleepUnless(sh.Stop, min(gap, MaxPause))
	}, func(st Step) error {
		last = st
		shown, changed, err := line(st)
		if err != nil {
			return err
		}
		if changed {
			fmt.Fprintf(w, "  %3d  %5.2fs  %-22s %s", st.Line, st.Since.Seconds(), st.Entry, shown)
		}
		if st.Idle {
			if turns++; turns == 1 {
				printWork(w, fmt.Sprintf("after the first turn (jig panel --terminal %s)", render.Clean(d.Terminal)), st.Status, st.At)
			}
		}
		return nil
	})
	if err != nil {
		return ownError(err)
	}
	printWork(w, "at the end", last.Status, last.At)
	if sh.Kept {
		fmt.Fprintf(w, "The status file stays in JIG_STATE_DIR; `jig session gc` removes it.\n")
	}
	return nil
}

// PrintLive keeps the demos' sessions alive, each replayed in a loop, one
// entry every pace, until a signal; then their files are removed. It
// prints the first one's status line at each entry that changes it in a
// round.
func PrintLive(demos []*Demo, sh Show, pace time.Duration) error {
	w, d := sh.Out, demos[0]
	fmt.Fprintf(w, "jig demo --live: a Pi 1.6.0 session the project recorded, replayed in a loop until Ctrl-C\n")
	for _, o := range demos {
		fmt.Fprintf(w, "  session     %s in terminal %s%s\n", render.Clean(o.Session), render.Clean(o.Terminal), o.As)
	}
	fmt.Fprintf(w, "  status file %s\n", render.Clean(d.Dir.SessionPath(d.Session)))
	fmt.Fprintf(w, "  watch it    in this terminal's status bar, or: jig panel --terminal %s\n\n", render.Clean(d.Terminal))
	fmt.Fprintf(w, "  round  line  entry                  status line\n")
	var line func(Step) (string, bool, error)
	round := 0
	err := LoopAll(demos, func() error { return sleepUnless(sh.Stop, pace) }, func(agent int, st Step) error {
		if agent > 0 {
			return nil
		}
		if st.Round != round {
			line, round = sh.changes(), st.Round
		}
		shown, changed, err := line(st)
		if changed {
			fmt.Fprintf(w, "  %5d  %4d  %-22s %s", st.Round, st.Line, st.Entry, shown)
		}
		return err
	})
	if s, ok := errors.AsType[stopped](err); ok {
		fmt.Fprintf(w, "\nStopped (%v); the demo's status files are removed.\n", s.sig)
		return nil
	}
	return ownError(err)
}

// changes renders each step's status line and says whether it changed.
func (sh Show) changes() func(Step) (string, bool, error) {
	shown := ""
	return func(st Step) (string, bool, error) {
		var b strings.Builder
		if err := render.Preset(&b, sh.Preset, st.Status, sh.Options); err != nil {
			return "", false, fmt.Errorf("line %d: %v", st.Line, err)
		}
		if b.String() == shown {
			return shown, false, nil
		}
		shown = b.String()
		return shown, true, nil
	}
}

// sleepUnless waits d (not at all when d is 0), or returns the signal
// that came first as a stopped.
func sleepUnless(stop <-chan os.Signal, d time.Duration) error {
	select {
	case sig := <-stop:
		return stopped{sig}
	default:
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case sig := <-stop:
		return stopped{sig}
	case <-t.C:
		return nil
	}
}

// printWork prints the Work panel of s, titled.
func printWork(w io.Writer, when string, s *status.Status, now time.Time) {
	fmt.Fprintf(w, "\nThe Work panel %s:\n", when)
	for _, l := range panel.Lines(s, now) {
		if l != "" {
			l = "  " + render.Clean(l)
		}
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
}

// ownError is a replay's failure as the demo's own: whatever went wrong
// inside the replay is no input of the user's and no session of theirs,
// so it keeps only the kinds of a state dir jig must not trust (a foreign
// or loose folder, a planted symlink).
func ownError(err error) error {
	if err == nil || errors.Is(err, status.ErrUnsafeDir) || errors.Is(err, status.ErrSymlink) {
		return err
	}
	return errors.New(err.Error())
}
