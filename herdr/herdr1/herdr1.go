// Package herdr1 drives Herdr 1, the open-source terminal multiplexer,
// through its CLI, which is its whole plugin API: `herdr pane list`,
// `herdr pane report-metadata`, `report-agent`, `release-agent`,
// `herdr plugin list|link`, `herdr integration status`. It finds the jig session in
// each Herdr pane, says what the sidebar shows for it, and reports the
// session's state as Herdr's own agent state.
// herdr/README.md lists the shapes used and where they come from.
package herdr1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"jig/agents"
	"jig/render"
	"jig/status"
)

// Source names jig's metadata in Herdr's sidebar, and jig's reports of
// agent state.
const Source = "jig"

// maxTokenValue is Herdr's limit on a metadata token's value.
const maxTokenValue = 80

// Timeout bounds one herdr call: a hook or a panel must not hang.
const Timeout = 5 * time.Second

// OutputLimit bounds what jig reads of one herdr call's stdout and of its
// stderr: a herdr that prints without end is stopped there.
const OutputLimit = 4 << 20

// TokenNames are the sidebar tokens jig reports (`$jig_ctx` in a sidebar
// row). Herdr keys a pane's tokens by name alone, the last writer winning
// whatever its source, so the names are jig's own: `ctx` or `model` would
// overwrite, and be cleared over, another plugin's.
var TokenNames = []string{"jig_ctx", "jig_cost", "jig_model"}

// SidebarRows is the Herdr config that shows the tokens: Herdr draws a
// custom token only where a sidebar row names it, and its default rows
// name none. These are Herdr's default agent rows plus jig's tokens.
const SidebarRows = `[ui.sidebar.agents]
rows = [["state_icon", "workspace", "tab"], ["agent", "$jig_ctx", "$jig_cost", "$jig_model"]]`

// ErrNotFound says herdr is not installed where jig looks.
var ErrNotFound = status.Mark(status.ErrNoProgram, errors.New("herdr not found: set HERDR_BIN_PATH or put herdr on PATH"))

// Find is $HERDR_BIN_PATH (Herdr sets it for its plugins), else herdr on
// PATH. Its error is always ErrNotFound.
func Find(getenv func(string) string) (string, error) {
	if p := getenv("HERDR_BIN_PATH"); p != "" {
		if executable(p) {
			return p, nil
		}
		return "", status.Mark(ErrNotFound, fmt.Errorf("HERDR_BIN_PATH=%s is not an executable file", p))
	}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, "herdr"); executable(p) {
			return p, nil
		}
	}
	return "", ErrNotFound
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Pane is the part of Herdr's PaneInfo jig reads.
type Pane struct {
	PaneID       string            `json:"pane_id"`
	Focused      bool              `json:"focused"`
	Agent        string            `json:"agent"` // the agent Herdr sees in the pane, by its label
	AgentSession *AgentSession     `json:"agent_session"`
	Tokens       map[string]string `json:"tokens"`
}

// AgentSession is what Herdr's agent integration says about the agent in a
// pane; for Pi, kind "path" and the transcript's path.
type AgentSession struct {
	Source string `json:"source"`
	Kind   string `json:"kind"`
	Value  string `json:"value"`
}

// showsAny reports whether the pane shows any of the named tokens.
func (p Pane) showsAny(names []string) bool {
	for _, n := range names {
		if _, ok := p.Tokens[n]; ok {
			return true
		}
	}
	return false
}

// Panes is `herdr pane list`.
func Panes(bin string) ([]Pane, error) {
	out, err := Run(bin, "pane", "list")
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result *struct {
			Panes []Pane `json:"panes"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("herdr pane list: not the JSON Herdr answers: %v", err)
	}
	if resp.Result == nil {
		return nil, fmt.Errorf("herdr pane list: no result in the answer")
	}
	return resp.Result.Panes, nil
}

// Plugin is the part of `herdr plugin list --json`'s InstalledPluginInfo
// jig reads.
type Plugin struct {
	PluginID string `json:"plugin_id"`
	Enabled  bool   `json:"enabled"`
}

// Plugins is `herdr plugin list --json`.
func Plugins(bin string) ([]Plugin, error) {
	out, err := Run(bin, "plugin", "list", "--json")
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result *struct {
			Plugins []Plugin `json:"plugins"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &resp); err != nil || resp.Result == nil {
		return nil, fmt.Errorf("herdr plugin list: not the JSON Herdr answers")
	}
	return resp.Result.Plugins, nil
}

// Run runs one herdr command (argv, no shell) with a deadline and returns
// its stdout. Herdr writes its errors to stderr, as a JSON error response
// or a line of text; a failure carries what it says there, in words.
func Run(bin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	// A child herdr left behind may hold its output open: stop waiting for
	// it soon after the timeout kills herdr.
	cmd.WaitDelay = 500 * time.Millisecond
	stdout, stderr := &capped{stop: cancel}, &capped{stop: cancel}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	what := "herdr " + strings.Join(args[:min(2, len(args))], " ")
	if stdout.over || stderr.over {
		return nil, fmt.Errorf("%s: printed more than %d MiB; stopped", what, OutputLimit>>20)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: no answer within %s", what, Timeout)
	}
	if err != nil {
		msg := errorText(stderr.Bytes())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("%s: %s", what, msg)
	}
	return stdout.Bytes(), nil
}

// capped keeps the first OutputLimit bytes written to it; past them it
// stops the command (stop) and says so (over). Not a bytes.Buffer: its
// ReadFrom would let io.Copy read past any limit.
type capped struct {
	buf  bytes.Buffer
	over bool
	stop func()
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > OutputLimit {
		c.over = true
		c.stop()
		return 0, errors.New("over the output limit")
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte { return c.buf.Bytes() }

// errorText is what herdr said on stderr, in words: the message of its
// JSON error response ("herdr is not running" for server_not_running, whose
// message names a socket path), else its first line of text.
func errorText(stderr []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(stderr), []byte("\n"))
	var resp struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &resp) == nil && resp.Error != nil {
		if resp.Error.Code == "server_not_running" {
			return "herdr is not running"
		}
		return strings.TrimSpace(resp.Error.Code + ": " + resp.Error.Message)
	}
	return string(line)
}

// Tokens are the sidebar tokens for a session, NAME=VALUE, each value cut
// to Herdr's limit.
func Tokens(s *status.Status) []string {
	model := render.Clean(render.ShortModel(s.Model)) // Herdr draws it in its sidebar
	if model == "" {
		model = "?"
	}
	values := []string{render.Percent(s.Context.Percent), render.Money(s.Usage.Cost), model}
	out := make([]string, len(TokenNames))
	for i, v := range values {
		if utf8.RuneCountInString(v) > maxTokenValue {
			v = string([]rune(v)[:maxTokenValue-1]) + "…"
		}
		out[i] = TokenNames[i] + "=" + v
	}
	return out
}

// SessionFor finds the live session in a Herdr pane through the terminal
// index, as `jig session for-terminal` does: one that recorded the pane's
// HERDR_PANE_ID, else the one whose transcript is the pane's agent session
// file (Herdr's Pi integration reports its path). Pi names that file
// <time>_<session id>.jsonl, so the session's own status file is the one
// read, and its sessionFile must be that path. It never reads the status
// files of sessions in no pane.
func SessionFor(dir *status.Dir, live status.Liveness, p Pane) (*status.Status, error) {
	s, err := dir.ForTerminal(p.PaneID, live)
	if s != nil || err != nil {
		return s, err
	}
	a := p.AgentSession
	if a == nil || a.Kind != "path" || a.Value == "" {
		return nil, nil
	}
	id, ok := SessionID(a.Value)
	if !ok {
		return nil, nil
	}
	s, err = dir.Read(id)
	if err != nil || s.Session != id || s.SessionFile == nil || *s.SessionFile != a.Value || !live.Alive(s) {
		return nil, nil // no such session here, or not this transcript's
	}
	return s, nil
}

// PaneSession is the live jig session in the pane paneID, as SessionFor
// finds it in the pane Herdr lists: status.ErrNoSession when there is none.
func PaneSession(bin string, dir *status.Dir, live status.Liveness, paneID string) (*status.Status, error) {
	panes, err := Panes(bin)
	if err != nil {
		return nil, err
	}
	pane := Pane{PaneID: paneID}
	for _, p := range panes {
		if p.PaneID == paneID {
			pane = p
		}
	}
	s, err := SessionFor(dir, live, pane)
	switch {
	case err != nil:
		return nil, status.Mark(status.ErrStateDir, err)
	case s == nil:
		return nil, status.Mark(status.ErrNoSession, fmt.Errorf("no jig session in pane %s", paneID))
	}
	return s, nil
}

// ActionPane is the pane a plugin action was invoked on:
// HERDR_PLUGIN_CONTEXT_JSON's focused_pane_id, else HERDR_PANE_ID.
func ActionPane(getenv func(string) string) string {
	var pc struct {
		FocusedPaneID string `json:"focused_pane_id"`
	}
	if ctx := getenv("HERDR_PLUGIN_CONTEXT_JSON"); ctx != "" && json.Unmarshal([]byte(ctx), &pc) == nil && pc.FocusedPaneID != "" {
		return pc.FocusedPaneID
	}
	return getenv(PaneVar)
}

// PaneVar is the variable Herdr 1 sets in each pane, and the
// terminalFrom of a session that recorded it.
const PaneVar = "HERDR_PANE_ID"

// SessionID is the session id in a Pi transcript's file name,
// <time>_<id>.jsonl.
func SessionID(path string) (string, bool) {
	name, ok := strings.CutSuffix(filepath.Base(path), ".jsonl")
	if !ok {
		return "", false
	}
	_, id, ok := strings.Cut(name, "_")
	return id, ok && id != ""
}

// Sync lists Herdr's panes (only the pane named, when one is) and sends
// each its reports (Reports), saying which failed: every pane is tried, the
// failures come back in one error. An unreadable state dir stops it
// (status.ErrStateDir). now orders a release after every report before it.
// The notes say where Herdr drops jig's reports (HerdrOwns).
func Sync(bin string, dir *status.Dir, live status.Liveness, now time.Time, only string) (notes []string, err error) {
	panes, err := Panes(bin)
	if err != nil {
		return nil, err
	}
	var failed []string
	for _, p := range panes {
		if only != "" && p.PaneID != only {
			continue
		}
		s, err := SessionFor(dir, live, p)
		if err != nil {
			return notes, status.Mark(status.ErrStateDir, err)
		}
		if s != nil && HerdrOwns(p, AgentLabel(s.Agent)) {
			notes = append(notes, "pane "+p.PaneID+": Herdr's own "+AgentLabel(s.Agent)+" integration reports it ("+
				p.AgentSession.Source+"), so Herdr drops jig's state for it; herdr integration uninstall "+AgentLabel(s.Agent)+" lets jig's through")
		}
		for _, args := range Reports(p, s, now) {
			if _, err := Run(bin, args...); err != nil {
				failed = append(failed, p.PaneID+": "+err.Error())
			}
		}
	}
	if len(failed) > 0 {
		return notes, &ReportError{Panes: failed}
	}
	return notes, nil
}

// HerdrOwns reports whether Herdr's own integration for the agent label
// reports the pane: the pane's agent session comes from Herdr's source
// for it (herdr:claude, herdr:codex, herdr:pi). Herdr 0.8.0 then files the
// pane's agent under that source and drops another source's reports
// (src/terminal/state.rs, set_hook_authority_at; src/agent_resume.rs).
func HerdrOwns(p Pane, label string) bool {
	return label != "" && p.AgentSession != nil && p.AgentSession.Source == "herdr:"+label
}

// reportsFor reports whether jig reports the agent Herdr labels so (a
// registered agent's Herdr label).
func reportsFor(label string) bool {
	for _, a := range agents.All() {
		if a.Herdr != "" && a.Herdr == label {
			return true
		}
	}
	return false
}

// Integrations are the agents jig reports for whose Herdr integration is
// installed (`herdr integration status`: current or outdated), by Herdr's
// label: with it, Herdr keeps its own reports for those agents' panes.
func Integrations(bin string) ([]string, error) {
	out, err := Run(bin, "integration", "status")
	if err != nil {
		return nil, err
	}
	var on []string
	for _, line := range strings.Split(string(out), "\n") {
		// src/cli/integration.rs: "<label>: not installed|current (vN)|outdated (…) (<path>)"
		label, state, ok := strings.Cut(line, ": ")
		if ok && reportsFor(label) && !strings.HasPrefix(state, "not installed") {
			on = append(on, label)
		}
	}
	return on, nil
}

// Reports are the herdr commands that make a pane show what jig knows of
// its session s (nil: none runs there):
//
//   - the sidebar tokens, `report-metadata … --token jig_ctx=52% …`;
//   - Herdr's own agent state, `report-agent … --agent pi|claude|codex
//     --state blocked|working|idle`: blocked while the session waits for
//     the person (attention), working while busy, else idle; its --seq is
//     the status's updatedAt in nanoseconds, so Herdr, which drops a report
//     whose seq is not above the last one's from jig, keeps the newest
//     state whatever order two syncs' reports arrive in.
//
// No report-agent-session: Herdr keeps an agent session only from its own
// sources, by session id, so jig's could never take effect.
//
// A pane whose session ended (or that never had one) but still shows jig's
// tokens gets them cleared and, when Herdr sees an agent there, the agent
// released (`release-agent`, seq now); any other pane gets nothing.
func Reports(p Pane, s *status.Status, now time.Time) [][]string {
	pane := []string{p.PaneID, "--source", Source}
	cmd := func(name string, args ...string) []string {
		return append(append([]string{"pane", name}, pane...), args...)
	}
	seq := func(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) }
	if s == nil {
		if !p.showsAny(TokenNames) {
			return nil
		}
		clear := cmd("report-metadata")
		for _, name := range TokenNames {
			clear = append(clear, "--clear-token", name)
		}
		reports := [][]string{clear}
		if p.Agent != "" {
			reports = append(reports, cmd("release-agent", "--agent", p.Agent, "--seq", seq(now)))
		}
		return reports
	}
	tokens := cmd("report-metadata")
	for _, t := range Tokens(s) {
		tokens = append(tokens, "--token", t)
	}
	reports := [][]string{tokens}
	label := AgentLabel(s.Agent)
	if label == "" {
		return reports
	}
	return append(reports, cmd("report-agent", "--agent", label, "--state", AgentState(s), "--seq", seq(s.UpdatedAt)))
}

// AgentLabel is Herdr's label for the agent a status names (Herdr's
// src/detect/mod.rs agent_label), as the agent registered it; "" for one
// jig cannot name to Herdr.
func AgentLabel(agent string) string {
	a, _ := agents.Lookup(agent)
	return a.Herdr
}

// AgentState is the session's state as Herdr's report-agent takes it.
func AgentState(s *status.Status) string {
	switch {
	case s.Attention != nil:
		return "blocked"
	case s.State == status.Busy:
		return "working"
	}
	return "idle"
}

// ReportError says which panes' reports failed.
type ReportError struct{ Panes []string }

func (e *ReportError) Error() string {
	return "reports failed for " + strings.Join(e.Panes, "; ")
}
