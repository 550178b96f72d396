package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"jig/panel"
	"jig/pi/replay"
	"jig/render"
	"jig/status"
)

// demoPace caps the pause between two entries on a real terminal, so a
// person can watch the line change.
const demoPace = 120 * time.Millisecond

// demoLivePace is the time between two entries of jig demo --live: a
// status bar that reruns jig every second or two shows most states.
const demoLivePace = 1500 * time.Millisecond

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "replay a recorded Pi session and show what a status line and a Work panel show",
		UsageText: "jig demo\n\n" +
			"Replays a Pi 1.6.0 transcript the project recorded, entry by entry, through the same\n" +
			"code a live session uses (the bridge fed what jig's Pi extension sends, the status\n" +
			"file), finds the session again as a status line does, and prints its status line at\n" +
			"each entry that changes it, and the Work panel after the first turn and at the end.\n" +
			"In a shell that runs in no terminal jig knows, it runs as if HC_TERMINAL_ID=jig-demo.\n" +
			"Uses a temporary state dir, removed afterwards, unless JIG_STATE_DIR is set; then the\n" +
			"session's file stays there (jig session gc removes it). No agent needed.\n\n" +
			"With --live it keeps the session alive instead, in this terminal and the real state\n" +
			"dir, replaying the transcript in a loop, one entry every --pace, until Ctrl-C (or\n" +
			"SIGTERM, SIGHUP), and then removes its file: watch your status bar, jig panel and\n" +
			"Herdr's views move before wiring Pi.\n\n" +
			"example: jig demo\n" +
			"         jig demo --live    # then, in another pane: jig panel --terminal <this terminal>",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "live", Usage: "keep the session alive in this terminal until Ctrl-C"},
			&cli.DurationFlag{Name: "pace", Value: demoLivePace, Usage: "with --live: the time between two entries"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.IsSet("pace") && !c.Bool("live") {
				return usageError(c, "--pace goes with --live")
			}
			if c.Duration("pace") < 10*time.Millisecond {
				return usageError(c, "--pace %s: give at least 10ms", c.Duration("pace"))
			}
			root, err := os.MkdirTemp("", "jig-demo-")
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			defer os.RemoveAll(root)
			// Ctrl-C, a closed terminal or a reader that stops reading
			// (jig demo | head) would end the process before the line
			// above runs: the demo stops at the next entry instead.
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
			defer signal.Stop(stop)
			dir := &status.Dir{Root: filepath.Join(root, "state")}
			if c.Bool("live") || e.getenv("JIG_STATE_DIR") != "" {
				if dir, err = e.stateDir(); err != nil {
					return err
				}
				if err := dir.Check(status.SessionsDir, status.TerminalsDir); err != nil {
					return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
				}
			}
			host, _ := e.hostname()
			d, err := replay.NewDemo(dir, root, e.getenv, host, e.now)
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			if c.Bool("live") {
				return e.playLive(c, d, stop, c.Duration("pace"))
			}
			return e.playDemo(c, d, stop)
		},
	}
}

// stopped is a signal that stopped the demo.
type stopped struct{ sig os.Signal }

func (s stopped) Error() string { return fmt.Sprintf("stopped: %v", s.sig) }

// playDemo replays the session once and prints what a status line and the
// Work panel show.
func (e *env) playDemo(c *cli.Context, d *replay.Demo, stop <-chan os.Signal) error {
	preset, opt := e.demoPreset()
	f, ok := stdoutFile(e.stdout)
	pace := ok && isatty.IsTerminal(f.Fd()) // a person watches; a pipe or test does not wait

	fmt.Fprintf(e.stdout, "jig demo: a Pi 1.6.0 session the project recorded, replayed entry by entry\n")
	fmt.Fprintf(e.stdout, "  session     %s in terminal %s%s\n", render.Clean(d.Session), render.Clean(d.Terminal), d.As)
	fmt.Fprintf(e.stdout, "  transcript  %s\n", render.Clean(d.File))
	fmt.Fprintf(e.stdout, "  status file %s\n\n", render.Clean(d.Dir.SessionPath(d.Session)))
	fmt.Fprintf(e.stdout, "The status line (tmux: jig session for-terminal \"#{pane_id}\" --preset tmux), at each entry that changes it:\n")
	fmt.Fprintf(e.stdout, "  line   time  entry\n")
	shown, turns := "", 0
	var last replay.Step
	err := d.Once(func(gap time.Duration) error {
		if !pace {
			gap = 0
		}
		return demoPause(stop, min(gap, demoPace))
	}, func(st replay.Step) error {
		last = st
		var b strings.Builder
		if err := render.Preset(&b, preset, st.Status, opt); err != nil {
			return fmt.Errorf("line %d: %v", st.Line, err)
		}
		if b.String() != shown {
			shown = b.String()
			fmt.Fprintf(e.stdout, "  %3d  %5.2fs  %-22s %s", st.Line, st.Since.Seconds(), st.Entry, shown)
		}
		if st.Idle {
			if turns++; turns == 1 {
				e.printWork(fmt.Sprintf("after the first turn (jig panel --terminal %s)", render.Clean(d.Terminal)), st.Status, st.At)
			}
		}
		return nil
	})
	if err != nil {
		return e.demoError(c, err)
	}
	e.printWork("at the end", last.Status, last.At)
	if e.getenv("JIG_STATE_DIR") != "" {
		fmt.Fprintf(e.stdout, "The status file stays in JIG_STATE_DIR; `jig session gc` removes it.\n")
	}
	return nil
}

// demoError is the line a failed replay ends with.
func (e *env) demoError(c *cli.Context, err error) error {
	if s, ok := errors.AsType[stopped](err); ok {
		return errorf(c, exitFailed, "%v", s)
	}
	return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
}

// demoPreset is the status line's preset: ansi on a terminal, else plain.
func (e *env) demoPreset() (string, render.PresetOptions) {
	preset := render.PresetPlain
	if e.stdoutTTY {
		preset = render.PresetANSI
	}
	return preset, render.PresetOptions{NoColor: e.getenv("NO_COLOR") != ""}
}

// playLive keeps the session alive in the real state dir, replayed in a
// loop, one entry every pace, until a signal; then its file is removed.
func (e *env) playLive(c *cli.Context, d *replay.Demo, stop <-chan os.Signal, pace time.Duration) error {
	preset, opt := e.demoPreset()
	fmt.Fprintf(e.stdout, "jig demo --live: a Pi 1.6.0 session the project recorded, replayed in a loop until Ctrl-C\n")
	fmt.Fprintf(e.stdout, "  session     %s in terminal %s%s\n", render.Clean(d.Session), render.Clean(d.Terminal), d.As)
	fmt.Fprintf(e.stdout, "  status file %s\n", render.Clean(d.Dir.SessionPath(d.Session)))
	fmt.Fprintf(e.stdout, "  watch it    in this terminal's status bar, or: jig panel --terminal %s\n\n", render.Clean(d.Terminal))
	fmt.Fprintf(e.stdout, "  round  line  entry                  status line\n")
	shown, round := "", 0
	err := d.Loop(func() error { return demoPause(stop, pace) }, func(st replay.Step) error {
		if st.Round != round {
			shown, round = "", st.Round
		}
		var b strings.Builder
		if err := render.Preset(&b, preset, st.Status, opt); err != nil {
			return fmt.Errorf("line %d: %v", st.Line, err)
		}
		if b.String() != shown {
			shown = b.String()
			fmt.Fprintf(e.stdout, "  %5d  %4d  %-22s %s", st.Round, st.Line, st.Entry, shown)
		}
		return nil
	})
	if s, ok := errors.AsType[stopped](err); ok {
		fmt.Fprintf(e.stdout, "\nStopped (%v); the session's status file is removed.\n", s.sig)
		return nil
	}
	return e.demoError(c, err)
}

// demoPause waits d (not at all when d is 0), or returns the signal that
// came first as a stopped.
func demoPause(stop <-chan os.Signal, d time.Duration) error {
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
func (e *env) printWork(when string, s *status.Status, now time.Time) {
	fmt.Fprintf(e.stdout, "\nThe Work panel %s:\n", when)
	for _, l := range panel.Lines(s, now) {
		if l != "" {
			l = "  " + render.Clean(l)
		}
		fmt.Fprintln(e.stdout, l)
	}
	fmt.Fprintln(e.stdout)
}
