package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"jig/panel"
	"jig/render"
	"jig/status"
)

// Herdr 1 (the open-source multiplexer) is driven through its CLI, which is
// its whole plugin API: `herdr pane list`, `herdr pane report-metadata`.
// herdr/README.md lists the shapes used and where they come from.

// herdrSource names jig's metadata in Herdr's sidebar.
const herdrSource = "jig"

// maxTokenValue is Herdr's limit on a metadata token's value.
const maxTokenValue = 80

// herdrTimeout bounds one herdr call: a hook or a panel must not hang.
const herdrTimeout = 5 * time.Second

var errNoHerdr = errors.New("herdr not found: set HERDR_BIN_PATH or put herdr on PATH")

func herdrCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "herdr",
		Usage: "work with Herdr 1, the terminal multiplexer",
		UsageText: "jig herdr COMMAND [options] [arguments]\n\n" +
			"example: jig herdr request tool bash off --dry-run",
		Subcommands: []*cli.Command{
			{
				Name:  "sync",
				Usage: "put each known Pi session's ctx, cost and model into Herdr's sidebar",
				UsageText: "jig herdr sync\n\n" +
					"Run by the jig Herdr plugin on pane.focused, pane.agent_status_changed and at startup.\n" +
					"A pane is matched by the HERDR_PANE_ID its session recorded, or by its agent session file.\n\n" +
					"example: jig herdr sync",
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					return herdrSync(c, e)
				},
			},
			{
				Name:  "request",
				Usage: "send a request to the Pi session in Herdr's focused pane (the plugin's actions)",
				UsageText: "jig herdr request tool NAME on|off | skill NAME on|off | reload [--dry-run]\n\n" +
					"Runs `jig request ... --session ID --wait` for the session in the pane the action was\n" +
					"invoked on (HERDR_PLUGIN_CONTEXT_JSON's focused_pane_id, else HERDR_PANE_ID).\n\n" +
					"example: jig herdr request skill pdf on",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "dry-run", Usage: "print the jig request command instead of running it"},
				},
				Action: func(c *cli.Context) error {
					return herdrRequest(c, e)
				},
			},
		},
	}
}

// herdrRequest finds the session in the pane a plugin action names and
// hands the request to `jig request`, which owns the request protocol.
func herdrRequest(c *cli.Context, e *env) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usageError(c, "say what to request: tool NAME on|off, skill NAME on|off or reload")
	}
	paneID := e.getenv("HERDR_PANE_ID")
	if ctx := e.getenv("HERDR_PLUGIN_CONTEXT_JSON"); ctx != "" {
		var pc struct {
			FocusedPaneID string `json:"focused_pane_id"`
		}
		if err := json.Unmarshal([]byte(ctx), &pc); err == nil && pc.FocusedPaneID != "" {
			paneID = pc.FocusedPaneID
		}
	}
	if paneID == "" {
		return errorf(c, exitUsage, "no pane: run it from a Herdr plugin action, or use jig request --terminal ID")
	}
	_, live, panes, err := herdrState(c, e)
	if err != nil {
		return err
	}
	pane := herdrPane{PaneID: paneID}
	for _, p := range panes {
		if p.PaneID == paneID {
			pane = p
		}
	}
	s := sessionForPane(pane, live)
	if s == nil {
		return errorf(c, exitNoSession, "no jig session in pane %s", paneID)
	}
	argv := append(append([]string{"request"}, args...), "--session", s.Session, "--wait")
	if c.Bool("dry-run") {
		fmt.Fprintln(e.stdout, render.Clean("jig "+strings.Join(argv, " ")))
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return errorf(c, exitFailed, "cannot find jig itself: %v", err)
	}
	cmd := exec.Command(self, argv...)
	cmd.Args[0] = "jig"
	cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return silent(ee.ExitCode()) // jig request said why
		}
		return errorf(c, exitFailed, "%v", err)
	}
	return nil
}

// herdrState is what both herdr commands start from: the herdr program,
// the live sessions and Herdr's panes.
func herdrState(c *cli.Context, e *env) (bin string, live []*status.Status, panes []herdrPane, err error) {
	if bin, err = herdrBin(e); err != nil {
		return "", nil, nil, errorf(c, exitNoProgram, "%v", err)
	}
	dir, err := e.stateDir()
	if err != nil {
		return "", nil, nil, err
	}
	if live, err = liveSessions(e, dir); err != nil {
		return "", nil, nil, errorf(c, exitStateDir, "%v", err)
	}
	if panes, err = herdrPanes(bin); err != nil {
		return "", nil, nil, errorf(c, exitFailed, "%v", err)
	}
	return bin, live, panes, nil
}

func herdrSync(c *cli.Context, e *env) error {
	bin, live, panes, err := herdrState(c, e)
	if err != nil {
		return err
	}
	var failed []string
	for _, p := range panes {
		args := []string{"pane", "report-metadata", p.PaneID, "--source", herdrSource}
		if s := sessionForPane(p, live); s != nil {
			for _, t := range herdrTokens(s) {
				args = append(args, "--token", t)
			}
		} else if p.hasTokens(herdrTokenNames) {
			// The pane's session ended (or moved): take jig's tokens away.
			for _, name := range herdrTokenNames {
				args = append(args, "--clear-token", name)
			}
		} else {
			continue
		}
		if _, err := runHerdr(bin, args...); err != nil {
			failed = append(failed, p.PaneID+": "+err.Error())
		}
	}
	if len(failed) > 0 {
		return errorf(c, exitFailed, "report-metadata failed for %s", strings.Join(failed, "; "))
	}
	return nil
}

// herdrTokenNames are the sidebar tokens jig reports, as `$ctx` etc.
var herdrTokenNames = []string{"ctx", "cost", "model"}

// herdrTokens are the short sidebar tokens for a session, each value cut
// to Herdr's limit.
func herdrTokens(s *status.Status) []string {
	model := render.Clean(render.ShortModel(s.Model)) // Herdr draws it in its sidebar
	if model == "" {
		model = "?"
	}
	var out []string
	for _, kv := range [][2]string{
		{"ctx", panel.PercentText(s.Context.Percent)},
		{"cost", panel.Money(s.Usage.Cost)},
		{"model", model},
	} {
		v := kv[1]
		if utf8.RuneCountInString(v) > maxTokenValue {
			v = string([]rune(v)[:maxTokenValue-1]) + "…"
		}
		out = append(out, kv[0]+"="+v)
	}
	return out
}

// herdrPane is the part of Herdr's PaneInfo jig reads.
type herdrPane struct {
	PaneID       string `json:"pane_id"`
	Focused      bool   `json:"focused"`
	AgentSession *struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"agent_session"`
	Tokens json.RawMessage `json:"tokens"`
}

// hasTokens reports whether the pane shows any of the named metadata
// tokens. Herdr's PaneInfo names them in `tokens`, an object keyed by name
// (a list of {name} is read too).
func (p herdrPane) hasTokens(names []string) bool {
	if len(p.Tokens) == 0 {
		return false
	}
	have := map[string]bool{}
	var byName map[string]json.RawMessage
	if json.Unmarshal(p.Tokens, &byName) == nil {
		for k := range byName {
			have[k] = true
		}
	} else {
		var list []struct {
			Name string `json:"name"`
		}
		json.Unmarshal(p.Tokens, &list)
		for _, t := range list {
			have[t.Name] = true
		}
	}
	for _, n := range names {
		if have[n] {
			return true
		}
	}
	return false
}

// sessionForPane finds the live session in a Herdr pane: one that recorded
// the pane's HERDR_PANE_ID, else one whose transcript is the pane's agent
// session file (Herdr's Pi integration reports it).
func sessionForPane(p herdrPane, live []*status.Status) *status.Status {
	var best *status.Status
	for _, s := range live {
		if s.HasTerminal(p.PaneID) && (best == nil || s.UpdatedAt.After(best.UpdatedAt)) {
			best = s
		}
	}
	if best != nil || p.AgentSession == nil || p.AgentSession.Kind != "path" || p.AgentSession.Value == "" {
		return best
	}
	for _, s := range live {
		if s.SessionFile != nil && *s.SessionFile == p.AgentSession.Value && (best == nil || s.UpdatedAt.After(best.UpdatedAt)) {
			best = s
		}
	}
	return best
}

// liveSessions reads every status file and keeps the sessions still running.
func liveSessions(e *env, dir *status.Dir) ([]*status.Status, error) {
	entries, err := dir.List()
	if err != nil {
		return nil, err
	}
	alive := e.liveness()
	var live []*status.Status
	for _, en := range entries {
		if en.Status != nil && alive.Alive(en.Status) {
			live = append(live, en.Status)
		}
	}
	return live, nil
}

// herdrBin is $HERDR_BIN_PATH (Herdr sets it for its plugins), else herdr
// on PATH.
func herdrBin(e *env) (string, error) {
	if p := e.getenv("HERDR_BIN_PATH"); p != "" {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
		return "", fmt.Errorf("HERDR_BIN_PATH=%s is not an executable file", p)
	}
	for _, d := range filepath.SplitList(e.getenv("PATH")) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, "herdr")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errNoHerdr
}

func herdrPanes(bin string) ([]herdrPane, error) {
	out, err := runHerdr(bin, "pane", "list")
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result *struct {
			Panes []herdrPane `json:"panes"`
		} `json:"result"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("herdr pane list: not the JSON Herdr answers: %v", err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("herdr pane list: %s: %s", resp.Error.Code, resp.Error.Message)
	}
	if resp.Result == nil {
		return nil, fmt.Errorf("herdr pane list: no result in the answer")
	}
	return resp.Result.Panes, nil
}

// runHerdr runs one herdr command (argv, no shell) with a deadline and
// returns its stdout; a failure carries the first line herdr wrote.
func runHerdr(bin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), herdrTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	// A child herdr left behind may hold its output open: stop waiting for
	// it soon after the timeout kills herdr.
	cmd.WaitDelay = 500 * time.Millisecond
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("herdr %s: no answer within %s", strings.Join(args[:2], " "), herdrTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("herdr %s: %s", strings.Join(args[:2], " "), msg)
	}
	return stdout.Bytes(), nil
}
