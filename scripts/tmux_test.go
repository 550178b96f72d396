package scripts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/testsrc"
)

// need finds a program the end-to-end tests use; without it they skip,
// except in CI (CI=true), where a missing program is a failure.
func need(t *testing.T, program string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: run .ci/provision", program)
		}
		t.Skipf("%s is missing (.ci/provision installs it)", program)
	}
	return p
}

func TestMain(m *testing.M) { testsrc.Main(m) }

// buildJig is jig, built once for this package's tests; the snippets it
// embeds are inputs too.
func buildJig(t *testing.T) string { return testsrc.Jig(t, ".lua", ".sh", ".tmux", ".conf", ".py") }

// poll calls check until it returns "" or the deadline passes, and fails
// with check's last word.
func poll(t *testing.T, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: gave up after 20s: %s", what, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The shipped tmux lines, as `jig install tmux --pane-border` prints them,
// in a real tmux: each pane's process writes its status through `jig session
// write`; the status line shows the focused pane's model and context percent
// and switches when the other pane takes the focus; each border shows its
// own pane's session. The status line is read as a user sees it: a client
// of that tmux runs inside a pane of a second, outer tmux, whose
// capture-pane returns the client's screen.
func TestTmuxStatusLine(t *testing.T) {
	need(t, "tmux")
	jig := buildJig(t)
	tmp := t.TempDir()
	state := filepath.Join(tmp, "state")
	env := []string{
		"PATH=" + filepath.Dir(jig) + ":/usr/bin:/bin",
		"HOME=" + tmp,
		"JIG_STATE_DIR=" + state,
		"TMUX_TMPDIR=" + tmp,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
	}

	conf := filepath.Join(tmp, "inner.conf")
	install := exec.Command(jig, "install", "tmux", "--pane-border")
	install.Env = env
	lines, err := install.Output()
	if err != nil {
		t.Fatalf("jig install tmux: %v", err)
	}
	fast := filepath.Join(filepath.Dir(jig), "jig-line") // what status lines run
	if !bytes.Contains(lines, []byte("#("+fast+" session for-terminal \"#{pane_id}\" --preset tmux")) {
		t.Fatalf("jig install tmux does not call %s with the pane id:\n%s", fast, lines)
	}
	if err := os.WriteFile(conf, lines, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"a.json": `{"state":"busy","model":{"provider":"anthropic","id":"claude-sonnet-4-5-20250929","name":"Claude Sonnet 4.5"},"thinking":"high","context":{"percent":42},"usage":{"cost":1.5}}`,
		"b.json": `{"state":"idle","model":{"provider":"openai","id":"gpt-5","name":"GPT-5"},"context":{"percent":87},"usage":{"cost":0.25}}`,
	} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Each pane's shell writes its session's status, then becomes the
	// long-lived process the status file names.
	paneCmd := func(session, file string) string {
		return fmt.Sprintf("jig session write --session %s --pid $$ < %s/%s && exec sleep 600", session, tmp, file)
	}

	inner, outer := testsrc.NewTmux(t, "inner", env), testsrc.NewTmux(t, "outer", env)
	paneA := inner.Run("-f", conf, "new-session", "-d", "-s", "main", "-x", "120", "-y", "12", "-P", "-F", "#{pane_id}", paneCmd("sess-a", "a.json"))
	paneB := inner.Run("split-window", "-t", "main", "-h", "-P", "-F", "#{pane_id}", paneCmd("sess-b", "b.json"))
	poll(t, "both panes write their status", func() string {
		for _, s := range []string{"sess-a", "sess-b"} {
			if _, err := os.Stat(filepath.Join(state, "sessions", s+".json")); err != nil {
				return err.Error()
			}
		}
		return ""
	})
	// The terminal is the TMUX_PANE tmux gave each pane's process.
	for session, pane := range map[string]string{"sess-a": paneA, "sess-b": paneB} {
		data, err := os.ReadFile(filepath.Join(state, "sessions", session+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if want := `"terminal": "` + pane + `"`; !bytes.Contains(data, []byte(want)) {
			t.Fatalf("%s's status lacks %s:\n%s", session, want, data)
		}
	}

	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "12", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t main")
	outer.Run("set", "-g", "status", "off")
	screen := func() (string, []string) {
		text := outer.Run("capture-pane", "-p", "-t", outerPane)
		rows := strings.Split(text, "\n")
		return rows[len(rows)-1], rows
	}

	// B was split last, so it has the focus.
	poll(t, "status line shows pane B's session", func() string {
		status, rows := screen()
		if !strings.Contains(status, "○ gpt-5 87% $0.25") || strings.Contains(status, "sonnet") {
			return fmt.Sprintf("status line %q (screen:\n%s)", status, strings.Join(rows, "\n"))
		}
		return ""
	})
	inner.Run("select-pane", "-t", paneA)
	poll(t, "status line switches to pane A's session", func() string {
		status, rows := screen()
		if !strings.Contains(status, "● claude-sonnet-4-5 high 42% $1.50") || strings.Contains(status, "gpt-5") {
			return fmt.Sprintf("status line %q (screen:\n%s)", status, strings.Join(rows, "\n"))
		}
		return ""
	})
	// Under 50 the percent takes the bar's own colour: tmux's default bar
	// is green, where green text would vanish. @jig-ok-colour, read by tmux
	// as it draws, recolours it without rerunning anything.
	lastRow := func() string {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-e", "-t", outerPane), "\n")
		return rows[len(rows)-1]
	}
	if row := lastRow(); strings.Contains(row, "\x1b[32m42%") || !strings.Contains(row, "42%") {
		t.Errorf("the percent should not be green on the green bar: %q", row)
	}
	inner.Run("set", "-g", "@jig-ok-colour", "yellow")
	poll(t, "@jig-ok-colour recolours the percent", func() string {
		if row := lastRow(); !strings.Contains(row, "\x1b[33m42%") {
			return fmt.Sprintf("no yellow 42%% in %q", row)
		}
		return ""
	})
	// Each border shows its own pane's session, whichever has the focus.
	poll(t, "each pane border shows its own session", func() string {
		_, rows := screen()
		top := rows[0]
		if !strings.Contains(top, "claude-sonnet-4-5") || !strings.Contains(top, "gpt-5") {
			return fmt.Sprintf("border row %q", top)
		}
		if strings.Index(top, "claude-sonnet-4-5") > strings.Index(top, "gpt-5") {
			return fmt.Sprintf("pane A (left) should show sonnet, B (right) gpt-5: %q", top)
		}
		return ""
	})
	// And what tmux itself says is focused agrees.
	if got := inner.Run("display", "-p", "-t", "main", "#{pane_id}"); got != paneA {
		t.Errorf("tmux says %s has the focus, want %s", got, paneA)
	}

	// An agent waiting in another window, in a pane that is not even that
	// window's active one, shows ◐ on the window's tab.
	waits := filepath.Join(tmp, "waits.json")
	os.WriteFile(waits, []byte(`{"state":"busy","attention":{"kind":"question"}}`), 0o600)
	inner.Run("new-window", "-d", "-t", "main", "-n", "far", "exec sleep 600")
	inner.Run("split-window", "-d", "-t", "main:far", paneCmd("sess-far", "waits.json"))
	poll(t, "the other window's tab shows the wait", func() string {
		status, _ := screen()
		if i := strings.Index(status, ":far"); i < 0 || !strings.Contains(status[i:], "◐") {
			return fmt.Sprintf("status line %q", status)
		}
		return ""
	})
}

// The plugin, run as TPM runs it (the repository root's jig.tmux), puts
// jig's segment where the user's own status-right says #{jig_status} and
// changes nothing else there; status-left has no token and stays; the
// border variant goes through the same token; @jig-format reaches jig as
// written. Without a token anywhere, the segment goes in front of
// status-right. Run again, it replaces its own segment, with the options as
// they are then, and never adds a second.
func TestTmuxPluginFile(t *testing.T) {
	need(t, "tmux")
	jig := buildJig(t)
	tmp := t.TempDir()
	plugin, err := filepath.Abs("../jig.tmux")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	start := func(name, conf string) *testsrc.Tmux {
		file := filepath.Join(tmp, name+".conf")
		if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		s := testsrc.NewTmux(t, name, env)
		s.Run("-f", file, "new-session", "-d", "sleep 600")
		return s
	}
	fast := filepath.Join(filepath.Dir(jig), "jig-line") // the plugin runs the jig-line beside @jig-bin
	job := "#('" + fast + "'" + ` session for-terminal "#{pane_id}" --preset tmux --max-width 40)`

	s := start("token", fmt.Sprintf("set -g @jig-bin '%s'\nset -g @jig-pane-border on\n"+
		"set -g status-left 'L #S'\nset -g status-right '[#{jig_status}] %%H:%%M'\n"+
		"set -g window-status-current-format '#I #{jig_glyph} #W'\nrun-shell '%s'\n", jig, plugin))
	poll(t, "the plugin fills #{jig_status} in status-right", func() string {
		if got, want := s.Run("show-options", "-gv", "status-right"), "["+job+"] %H:%M"; got != want {
			return fmt.Sprintf("status-right %q, want %q", got, want)
		}
		return ""
	})
	if got := s.Run("show-options", "-gv", "status-left"); got != "L #S" {
		t.Errorf("status-left changed: %q", got)
	}
	// A #{jig_glyph} of the user's own is filled in, without @jig-window-glyph;
	// window-status-format, without one, is left as it was.
	glyphJob := "#('" + fast + "'" + ` session for-terminal "#{pane_id}" --preset glyph)`
	if got, want := s.Run("show-options", "-gv", "window-status-current-format"), "#I "+glyphJob+" #W"; got != want {
		t.Errorf("window-status-current-format %q, want %q", got, want)
	}
	if got := s.Run("show-options", "-gv", "window-status-format"); strings.Contains(got, "jig") {
		t.Errorf("window-status-format changed without @jig-window-glyph: %q", got)
	}
	if got := s.Run("show-options", "-gv", "status-interval"); got != "2" {
		t.Errorf("status-interval %s, want 2", got)
	}
	border := s.Run("show-options", "-gv", "pane-border-format")
	if want := " #{pane_index} #('" + fast + "'" + ` session for-terminal "#{pane_id}" --preset tmux --max-width 50) `; border != want {
		t.Errorf("pane-border-format %q, want %q", border, want)
	}
	// Run again (TPM's prefix I), the plugin replaces its own segment:
	// nothing doubles, and an option changed since takes effect.
	s.Run("run-shell", plugin)
	if got, want := s.Run("show-options", "-gv", "status-right"), "["+job+"] %H:%M"; got != want {
		t.Errorf("run again, status-right %q, want %q", got, want)
	}
	if got := s.Run("show-options", "-gv", "pane-border-format"); got != border {
		t.Errorf("run again, pane-border-format %q, want %q", got, border)
	}
	s.Run("set-option", "-g", "@jig-max-width", "30")
	s.Run("run-shell", plugin)
	if got, want := s.Run("show-options", "-gv", "status-right"), "["+strings.Replace(job, "40)", "30)", 1)+"] %H:%M"; got != want {
		t.Errorf("run with @jig-max-width 30, status-right %q, want %q", got, want)
	}
	if got := s.Run("show-options", "-gv", "status-left"); got != "L #S" {
		t.Errorf("run again, status-left changed: %q", got)
	}

	s = start("glyph", fmt.Sprintf("set -g @jig-bin '%s'\nset -g @jig-window-glyph on\nset -g @jig-rate-limits on\n"+
		"set -g window-status-format '#I:#W'\nrun-shell '%s'\n", jig, plugin))
	windowJob := "#('" + fast + "'" + ` session for-terminal #{P:#{pane_id} }--preset glyph)`
	poll(t, "@jig-window-glyph puts the window's glyph after each window's name", func() string {
		for option, want := range map[string]string{
			"window-status-format":         "#I:#W" + windowJob,
			"window-status-current-format": "#I:#W#{?window_flags,#{window_flags}, }" + windowJob,
			"status-right":                 "#('" + fast + "'" + ` session for-terminal "#{pane_id}" --preset tmux --rate-limits --max-width 40)`,
		} {
			if got := s.Run("show-options", "-gv", option); !strings.HasPrefix(got, want) {
				return fmt.Sprintf("%s %q, want %q", option, got, want)
			}
		}
		return ""
	})
	s.Run("run-shell", plugin)
	if got := s.Run("show-options", "-gv", "window-status-format"); got != "#I:#W"+windowJob {
		t.Errorf("run again, window-status-format %q", got)
	}

	s = start("plain", fmt.Sprintf("set -g @jig-bin '%s'\nset -g @jig-format '#[fg=red]{{.state}} & more'\n"+
		"set -g status-right 'mine'\nrun-shell '%s'\n", jig, plugin))
	plain := "#('" + fast + "'" + ` session for-terminal "#{pane_id}" --format '##[fg=red]{{.state}} & more' --max-width 40) mine`
	poll(t, "without a token the segment goes in front of status-right", func() string {
		if got := s.Run("show-options", "-gv", "status-right"); got != plain {
			return fmt.Sprintf("status-right %q, want %q", got, plain)
		}
		return ""
	})
	s.Run("run-shell", plugin)
	if got := s.Run("show-options", "-gv", "status-right"); got != plain {
		t.Errorf("run again without a token, status-right %q, want %q", got, plain)
	}
}

// `jig install tmux --uninstall` takes jig's lines out of tmux.conf and
// prints the line that puts tmux's own options back in a running tmux. Run
// as printed, in a real tmux that loaded jig's lines: every option jig set
// is tmux's default or the user's own again, and the session lives on
// (tmux kill-server, what this said before, would have ended it).
func TestTmuxUninstallReset(t *testing.T) {
	tmuxBin := need(t, "tmux")
	jig := buildJig(t)
	tmp := t.TempDir()
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	conf := filepath.Join(tmp, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status-interval 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	jigRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(jig, append([]string{"install", "tmux", "--config", conf}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("jig install tmux %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	jigRun("--write", "--pane-border")
	s := testsrc.NewTmux(t, "reset", env)
	s.Run("-f", conf, "new-session", "-d", "-s", "work", "sleep 600")
	if got := s.Run("show-options", "-gv", "status-right"); !strings.Contains(got, "session for-terminal") {
		t.Fatalf("jig's lines did not load: status-right %q", got)
	}
	defaults := testsrc.NewTmux(t, "defaults", env)
	defaults.Run("-f", "/dev/null", "new-session", "-d", "sleep 600")

	said := jigRun("--uninstall")
	_, line, ok := strings.Cut(strings.TrimSpace(said), "without restarting it: ")
	if !ok || !strings.HasPrefix(line, "tmux ") {
		t.Fatalf("no line to run in %q", said)
	}
	// The line runs as a user runs it, in sh, its tmux this test's server.
	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nexec %q -L %q \"$@\"\n", tmuxBin, s.Socket)
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", line)
	sh.Env = append(env, "PATH="+bin+":/usr/bin:/bin")
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", line, err, out)
	}
	for _, opt := range []string{"status-right", "status-right-length", "pane-border-status", "pane-border-format"} {
		if got, want := s.Run("show-options", "-gv", opt), defaults.Run("show-options", "-gv", opt); got != want {
			t.Errorf("%s is %q, want tmux's default %q", opt, got, want)
		}
	}
	if got := s.Run("show-options", "-gv", "status-interval"); got != "5" {
		t.Errorf("status-interval %q, want the user's own 5", got)
	}
	s.Run("has-session", "-t", "work")
}

// The window list as a client shows it: with @jig-window-glyph each window
// names its agent's state in one glyph, ◐ while the agent waits for the
// person, ● once the wait is over; a window without an agent shows none.
func TestTmuxWindowGlyph(t *testing.T) {
	need(t, "tmux")
	jig := buildJig(t)
	tmp := t.TempDir()
	state := filepath.Join(tmp, "state")
	plugin, err := filepath.Abs("../jig.tmux")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Dir(jig) + ":/usr/bin:/bin", "HOME=" + tmp, "JIG_STATE_DIR=" + state,
		"TMUX_TMPDIR=" + tmp, "TERM=xterm-256color", "LANG=C.UTF-8"}
	conf := filepath.Join(tmp, "inner.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("set -g @jig-bin '%s'\nset -g @jig-window-glyph on\n"+
		"set -g window-status-format '[#W]'\nset -g window-status-current-format '[#W]'\nrun-shell '%s'\n", jig, plugin)), 0o600); err != nil {
		t.Fatal(err)
	}
	waits := `{"state":"busy","attention":{"kind":"permission","tool":"Bash"},"model":{"id":"claude-sonnet-4-5"}}`
	busy := `{"state":"busy","model":{"id":"gpt-5"}}`
	for name, body := range map[string]string{"waits.json": waits, "busy.json": busy} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Each window's shell writes its session, then becomes the long-lived
	// process the status file names.
	paneCmd := func(session, file string) string {
		return fmt.Sprintf("jig session write --session %s --pid $$ < %s/%s && exec sleep 600", session, tmp, file)
	}
	inner, outer := testsrc.NewTmux(t, "inner", env), testsrc.NewTmux(t, "outer", env)
	// The waiting agent is not in its window's active pane: the window's tab
	// shows it all the same (#{jig_window} asks about every pane).
	inner.Run("-f", conf, "new-session", "-d", "-s", "main", "-n", "waits", "-x", "100", "-y", "6", "exec sleep 600")
	inner.Run("split-window", "-d", "-t", "main:waits", paneCmd("sess-w", "waits.json"))
	inner.Run("new-window", "-d", "-t", "main", "-n", "busy", paneCmd("sess-b", "busy.json"))
	inner.Run("new-window", "-d", "-t", "main", "-n", "shell", "exec sleep 600")
	outerPane := outer.Run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "6", "-P", "-F", "#{pane_id}",
		"env -u TMUX tmux -L "+inner.Socket+" attach -t main")
	outer.Run("set", "-g", "status", "off")
	bar := func() string {
		rows := strings.Split(outer.Run("capture-pane", "-p", "-t", outerPane), "\n")
		return rows[len(rows)-1]
	}
	poll(t, "each window shows its agent's glyph", func() string {
		if b := bar(); !strings.Contains(b, "[waits]◐") || !strings.Contains(b, "[busy]●") || strings.ContainsAny(strings.SplitAfter(b, "[shell]")[1][:1], "◐●○") {
			return fmt.Sprintf("window list %q", b)
		}
		return ""
	})
	// The wait is over: the glyph is the busy one.
	clear := exec.Command(jig, "session", "write", "--session", "sess-w", "--pid", inner.Run("display", "-p", "-t", "main:waits.1", "#{pane_pid}"))
	clear.Env = env
	clear.Stdin = strings.NewReader(`{"attention":null}`)
	if out, err := clear.CombinedOutput(); err != nil {
		t.Fatalf("jig session write: %v\n%s", err, out)
	}
	poll(t, "the glyph follows the cleared attention", func() string {
		if b := bar(); !strings.Contains(b, "[waits]●") {
			return fmt.Sprintf("window list %q", b)
		}
		return ""
	})
}
