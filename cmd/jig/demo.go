package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"jig/pi/replay"
	"jig/render"
	"jig/status"
)

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
			&cli.IntFlag{Name: "agents", Value: 1, Usage: "with --live: run `N` sessions at once, each with its own id, terminal and project (for jig board)"},
		},
		Action: func(c *cli.Context) error {
			if err := demoFlags(c); err != nil {
				return err
			}
			root, err := os.MkdirTemp("", "jig-demo-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(root)
			// Ctrl-C, a closed terminal or a reader that stops reading
			// (jig demo | head) would end the process before the line
			// above runs: the demo stops at the next entry instead.
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
			defer signal.Stop(stop)
			dir, show, err := e.demo(c.Bool("live"), root, stop)
			if err != nil {
				return err
			}
			host, _ := e.Hostname()
			if c.Bool("live") {
				demos, err := replay.NewLiveDemos(dir, root, e.Getenv, host, e.Now, c.Int("agents"))
				if err != nil {
					return err
				}
				return replay.PrintLive(demos, show, c.Duration("pace"))
			}
			d, err := replay.NewDemo(dir, root, e.Getenv, host, e.Now)
			if err != nil {
				return err
			}
			return d.Print(show)
		},
	}
}

// demoFlags refuses what jig demo's flags cannot mean together.
func demoFlags(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	for _, f := range []string{"pace", "agents"} {
		if c.IsSet(f) && !c.Bool("live") {
			return usageError(c, "--%s goes with --live", f)
		}
	}
	if n := c.Int("agents"); n < 1 || n > replay.MaxAgents {
		return usageError(c, "--agents %d: give 1 to %d", n, replay.MaxAgents)
	}
	if c.Duration("pace") < 10*time.Millisecond {
		return usageError(c, "--pace %s: give at least 10ms", c.Duration("pace"))
	}
	return nil
}

// demo is the state dir jig demo plays into (under root unless it goes
// live or JIG_STATE_DIR is set) and how it shows here: the status line as
// a terminal (ansi) or a pipe (plain) shows it, paced for a person
// watching.
func (e *env) demo(live bool, root string, stop <-chan os.Signal) (*status.Dir, replay.Show, error) {
	sh := replay.Show{Out: e.Stdout, Preset: render.PresetPlain, Options: render.PresetOptions{NoColor: e.Getenv("NO_COLOR") != ""},
		Stop: stop, Kept: e.Getenv("JIG_STATE_DIR") != ""}
	if e.StdoutTTY {
		sh.Preset = render.PresetANSI
	}
	f, ok := stdoutFile(e.Stdout)
	sh.Watched = ok && isatty.IsTerminal(f.Fd())
	if !live && !sh.Kept {
		return &status.Dir{Root: filepath.Join(root, "state")}, sh, nil
	}
	dir, err := e.StateDir()
	if err == nil {
		err = dir.Check(status.SessionsDir, status.TerminalsDir)
	}
	return dir, sh, err
}
