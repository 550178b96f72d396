package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"jig/render"
	"jig/status"
	"jig/terminal"
)

// demoSession is the scripted session jig demo plays: what an agent says,
// step by step, as `jig session write` would take it on stdin.
//
//go:embed demo/session.json
var demoSession []byte

// demoStep is one moment of the scripted session.
type demoStep struct {
	After  float64         `json:"after"`  // seconds into the session
	Set    json.RawMessage `json:"set"`    // fields laid over the status file
	Call   *status.Call    `json:"call"`   // a tool call, newest first in recent
	Output *status.Output  `json:"output"` // a file the session created or changed
}

// demoTerminal names the demo's terminal when the shell runs in none jig knows.
const demoTerminal = "jig-demo"

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "play a short scripted session and show what a status line and a Work panel show",
		UsageText: "jig demo\n\n" +
			"Writes a scripted agent session through the same code as `jig session write`,\n" +
			"finds it again as a status line does, and prints each step's status line and the\n" +
			"final Work view. Uses a temporary state dir unless JIG_STATE_DIR is set; the\n" +
			"session's file is removed at the end, as when a session ends. No agent needed.\n\n" +
			"example: jig demo",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError(c, "takes no arguments, got %q", c.Args().First())
			}
			var steps []demoStep
			if err := json.Unmarshal(demoSession, &steps); err != nil {
				return errorf(c, exitFailed, "the embedded session: %v", err)
			}
			dir, cleanup, err := e.demoStateDir()
			if err != nil {
				return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
			}
			defer cleanup()
			return e.playDemo(c, dir, steps)
		},
	}
}

// demoStateDir is $JIG_STATE_DIR when set, else a new temporary one that
// cleanup removes.
func (e *env) demoStateDir() (*status.Dir, func(), error) {
	if e.getenv("JIG_STATE_DIR") != "" {
		d, err := e.stateDir()
		if err == nil {
			err = d.Check(status.SessionsDir, status.TerminalsDir)
		}
		return d, func() {}, err
	}
	root, err := os.MkdirTemp("", "jig-demo-")
	if err != nil {
		return nil, nil, err
	}
	return &status.Dir{Root: root}, func() { os.RemoveAll(root) }, nil
}

// playDemo writes each step as the agent's live update, reads the session
// back by its terminal as a status line would, and prints what it shows.
func (e *env) playDemo(c *cli.Context, dir *status.Dir, steps []demoStep) error {
	id := fmt.Sprintf("demo-%d", os.Getpid())
	term := demoTerminal
	if t := terminal.Innermost(terminal.Detect(e.getenv)); t != nil {
		term = t.ID
	}
	start := e.now()
	var recent []status.Call
	var outputs []status.Output
	fmt.Fprintf(e.stdout, "jig demo: session %s in terminal %s, file %s\n\n", id, render.Clean(term), dir.SessionPath(id))
	fmt.Fprintf(e.stdout, "A tmux status line, each step (status-right '#(jig session for-terminal \"#{pane_id}\" --format \"%s\")'):\n", render.StatusLineFormat)
	var last *status.Status
	for i, st := range steps {
		at := start.Add(time.Duration(st.After * float64(time.Second)))
		if st.Call != nil {
			call := *st.Call
			call.At = at
			if len(recent) > 0 && recent[0].Outcome == status.Pending && recent[0].Tool == call.Tool {
				recent = recent[1:] // the pending call has ended
			}
			recent = append([]status.Call{call}, recent...)
		}
		if st.Output != nil {
			out := *st.Output
			out.At = at
			outputs = append([]status.Output{out}, outputs...)
		}
		live, err := demoPatch(st.Set, recent, outputs, term)
		if err != nil {
			return errorf(c, exitFailed, "step %d: %v", i+1, err)
		}
		s, err := e.buildStatus(dir, id, os.Getpid(), nil, live)
		if err != nil {
			return errorf(c, stateErrorCode(err, exitFailed), "step %d: %v", i+1, err)
		}
		if _, err := dir.Write(s, at); err != nil {
			return errorf(c, stateErrorCode(err, exitFailed), "step %d: %v", i+1, err)
		}
		found, err := dir.ForTerminal(term, e.liveness())
		if err != nil || found == nil {
			return errorf(c, exitFailed, "step %d: the session is not found in terminal %s: %v", i+1, term, err)
		}
		fmt.Fprintf(e.stdout, "  +%2.0fs  ", st.After)
		if err := render.Template(e.stdout, render.StatusLineFormat, found, at); err != nil {
			return errorf(c, exitFailed, "step %d: %v", i+1, err)
		}
		fmt.Fprintln(e.stdout)
		last = found
	}
	fmt.Fprintf(e.stdout, "\nThe Work panel at the end:\n")
	render.Work(e.stdout, last, start.Add(time.Duration(steps[len(steps)-1].After*float64(time.Second))))
	if err := dir.Remove(id); err != nil {
		return errorf(c, exitFailed, "%v", err)
	}
	return nil
}

// demoPatch is one step's live update: its fields, the lists so far, and the
// demo terminal when the shell has none.
func demoPatch(set json.RawMessage, recent []status.Call, outputs []status.Output, term string) ([]byte, error) {
	patch := map[string]any{}
	if len(set) > 0 {
		if err := json.Unmarshal(set, &patch); err != nil {
			return nil, err
		}
	}
	if recent != nil {
		patch["recent"] = recent
	}
	if outputs != nil {
		patch["outputs"] = outputs
	}
	if term == demoTerminal {
		patch["terminal"], patch["terminalFrom"] = term, nil
	}
	return json.Marshal(patch)
}
