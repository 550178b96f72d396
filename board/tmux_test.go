package board_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/testsrc"
)

// tmuxBoard is a real tmux server with two tmux sessions of two panes each,
// a client attached to the first, and three live agent sessions in three
// of the panes: one waits for the person, one is busy, one idle.
type tmuxBoard struct {
	tmux   *testsrc.Tmux
	socket string
	state  string
	jig    string
	ids    map[string]string // state → session id
	panes  map[string]string // state → pane id
}

func newTmuxBoard(t *testing.T) *tmuxBoard {
	if _, err := exec.LookPath("tmux"); err != nil {
		pitest.Missing(t, "no tmux")
	}
	b := &tmuxBoard{jig: testsrc.Jig(t), state: stateDir(t), ids: map[string]string{}, panes: map[string]string{}}
	env := append(os.Environ(), "JIG_STATE_DIR="+b.state)
	b.tmux = testsrc.NewTmux(t, "board", env)
	b.tmux.Run("new-session", "-d", "-s", "one", "-x", "160", "-y", "40")
	b.tmux.Run("split-window", "-t", "one")
	b.tmux.Run("new-session", "-d", "-s", "two", "-x", "160", "-y", "40")
	b.tmux.Run("split-window", "-t", "two")
	b.socket = b.tmux.Run("display", "-p", "-t", "one", "#{socket_path}")
	panes := strings.Fields(b.tmux.Run("list-panes", "-a", "-F", "#{pane_id}"))
	if len(panes) != 4 {
		t.Fatalf("panes %v", panes)
	}
	b.tmux.Attach("one")
	pid := agent(t)
	host, _ := os.Hostname()
	now := time.Now().UTC()
	for i, s := range []struct{ state, project, extra string }{
		{"idle", "alpha", ``},
		{"busy", "beta", ``},
		{"waiting", "gamma", `,"attention":{"kind":"permission","since":"` + now.Format(time.RFC3339Nano) + `","tool":"Bash"}`},
	} {
		id := s.state + "-0190a" + string(rune('a'+i))
		pane := panes[i+1] // %1 in "one"; %2 and %3 in "two"
		cwd := filepath.Join(t.TempDir(), s.project)
		os.Mkdir(cwd, 0o755)
		state := s.state
		if state == "waiting" {
			state = "busy"
		}
		doc := `{"schema":1,"session":"` + id + `","pid":` + itoa(pid) + `,"host":"` + host + `","cwd":"` + cwd +
			`","terminal":"` + pane + `","terminalFrom":"TMUX_PANE","terminals":[{"from":"TMUX_PANE","id":"` + pane +
			`","instance":"` + b.socket + `"}],"agent":"pi","agentDir":"","sessionFile":null,` +
			`"model":{"provider":"p","id":"m","name":"Mock"},"thinking":null,"state":"` + state + `",` +
			`"context":{"tokens":null,"window":null,"percent":null},"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cost":null},` +
			`"tools":{"active":2,"total":2},"switches":{"tools":{},"skills":{}},"ticket":null,"workflow":null,"outputs":[],"recent":[],` +
			`"contextDetail":{"window":null,"tokens":0,"parts":[],"tools":[{"name":"bash","tokens":1},{"name":"read","tokens":1}],"skills":[],"files":[]},` +
			`"lastRequest":null` + s.extra + `,"startedAt":"` + now.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano) +
			`","updatedAt":"` + now.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano) + `"}`
		if !json.Valid([]byte(doc)) {
			t.Fatalf("bad test document %s", doc)
		}
		os.MkdirAll(filepath.Join(b.state, "sessions"), 0o700)
		if err := os.WriteFile(filepath.Join(b.state, "sessions", id+".json"), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		b.ids[s.state], b.panes[s.state] = id, pane
	}
	return b
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// current is the pane the attached client shows.
func (b *tmuxBoard) current() string {
	return b.tmux.Run("display", "-p", "#{client_session} #{pane_id}")
}

func TestBoardInTmuxListsInOrderAndJumps(t *testing.T) {
	b := newTmuxBoard(t)
	out, err := jigIn(t, b.jig, b.state, "", []string{"COLUMNS=200"}, "board", "--once")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header and three rows:\n%s", out)
	}
	for i, want := range []string{"gamma", "beta", "alpha"} {
		if !strings.Contains(lines[i+1], want) {
			t.Errorf("row %d is not %s:\n%s", i+1, want, out)
		}
	}
	if !strings.HasPrefix(lines[1], "◐") || !strings.Contains(lines[1], "asks: Bash") {
		t.Errorf("the waiting session does not say what waits: %q", lines[1])
	}

	if got := b.current(); got != "one %1" && got != "one %0" {
		t.Fatalf("the client starts in one: %q", got)
	}
	if _, err := jigIn(t, b.jig, b.state, "", nil, "board", "--jump", b.ids["waiting"][:9]); err != nil {
		t.Fatal(err)
	}
	if got := b.current(); got != "two "+b.panes["waiting"] {
		t.Errorf("after --jump the client shows %q, want two %s", got, b.panes["waiting"])
	}
	if _, err := jigIn(t, b.jig, b.state, "", nil, "board", "--jump", "nosuch"); err == nil {
		t.Error("--jump to no session must fail")
	}
}

// waitScreen waits until pane's screen matches want.
func (b *tmuxBoard) waitScreen(t *testing.T, pane, want string) string {
	t.Helper()
	var screen string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		screen = b.tmux.Run("capture-pane", "-p", "-t", pane)
		if strings.Contains(screen, want) {
			return screen
		}
	}
	t.Fatalf("pane %s never showed %q:\n%s", pane, want, screen)
	return ""
}

// TestInteractiveBoardInTmux: the board in a real tmux pane, driven by
// keys as a person types them: Enter jumps the client to the selected
// session's pane, t and Enter turn a tool of another session off, and the
// session's file shows the switch once the session takes the request.
func TestInteractiveBoardInTmux(t *testing.T) {
	b := newTmuxBoard(t)
	board := "%0" // the free pane in "one", beside the idle session's
	b.tmux.Run("respawn-pane", "-k", "-t", board, "env", "JIG_STATE_DIR="+b.state, b.jig, "board")
	screen := b.waitScreen(t, board, "gamma")
	if !strings.Contains(screen, "› ◐") {
		t.Errorf("the waiting session is not first and selected:\n%s", screen)
	}

	b.tmux.Run("send-keys", "-t", board, "Enter")
	for deadline := time.Now().Add(10 * time.Second); b.current() != "two "+b.panes["waiting"]; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Enter did not jump: the client shows %q", b.current())
		}
	}

	b.tmux.Run("send-keys", "-t", board, "j", "t")
	b.waitScreen(t, board, "tools of beta")
	b.tmux.Run("send-keys", "-t", board, "Enter")
	b.waitScreen(t, board, "queued: taken at the session's next event")
	answer, err := jigIn(t, b.jig, b.state, `{"tools":["bash","read"],"active":["bash","read"],"hidden":[],"skills":[]}`, nil,
		"request", "handle", "--session", b.ids["busy"])
	if err != nil || !strings.Contains(answer, `"bash":false`) {
		t.Fatalf("the busy session got no request from the board: %s %v", answer, err)
	}
	out, err := jigIn(t, b.jig, b.state, "", nil, "session", "show", b.ids["busy"], "--jq", ".switches.tools.bash")
	if err != nil || strings.TrimSpace(out) != "false" {
		t.Errorf("the session's file does not show bash off: %q %v", out, err)
	}
	b.waitScreen(t, board, "beta done: tool bash off") // the session's answer, once it gives it
	b.tmux.Run("send-keys", "-t", board, "t")          // the board read the file again on its change
	b.waitScreen(t, board, "off      bash")
	b.tmux.Run("send-keys", "-t", board, "Escape") // a lone Esc closes the menu at once
	b.waitGone(t, board, "tools of beta")

	b.tmux.Run("send-keys", "-t", board, "n") // the next (the only) session that waits
	b.waitScreen(t, board, "› ◐")
	if colour := b.tmux.Run("capture-pane", "-p", "-e", "-t", board); !strings.Contains(colour, "\x1b[") {
		t.Errorf("the board is not in colour:\n%q", colour)
	}
	b.tmux.Run("send-keys", "-t", board, "?")
	b.waitScreen(t, board, "the next session that waits for you")
	b.tmux.Run("send-keys", "-t", board, "x")
	b.waitGone(t, board, "the next session that waits for you")
	b.tmux.Run("send-keys", "-t", board, "/", "alp")
	screen = b.waitScreen(t, board, "filter: alp")
	if strings.Contains(screen, "gamma") || !strings.Contains(screen, "alpha") {
		t.Errorf("the filter keeps alpha alone:\n%s", screen)
	}
	b.tmux.Run("send-keys", "-t", board, "Escape") // a lone Esc, then nothing: the filter goes
	b.waitGone(t, board, "filter: alp")            // so the q below is a key of its own
	b.tmux.Run("send-keys", "-t", board, "q")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if panes := b.tmux.Run("list-panes", "-a", "-F", "#{pane_id}:#{pane_dead}"); !strings.Contains(panes, board+":0") {
			break // gone, or dead
		}
		if time.Now().After(deadline) {
			t.Fatalf("q after Esc did not quit the board:\n%s", b.tmux.Run("capture-pane", "-p", "-t", board))
		}
	}
}

// waitGone waits until pane's screen no longer shows what.
func (b *tmuxBoard) waitGone(t *testing.T, pane, what string) {
	t.Helper()
	var screen string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if screen = b.tmux.Run("capture-pane", "-p", "-t", pane); !strings.Contains(screen, what) {
			return
		}
	}
	t.Fatalf("pane %s still shows %q:\n%s", pane, what, screen)
}

// TestJumpWithNoClientAttached: on a tmux server no client is attached to,
// a jump makes the session's window and pane the active ones and succeeds.
func TestJumpWithNoClientAttached(t *testing.T) {
	b := newTmuxBoard(t)
	b.tmux.Run("detach-client", "-a") // every client
	b.tmux.Run("detach-client")
	for deadline := time.Now().Add(10 * time.Second); b.tmux.Run("list-clients") != ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a client stays: %s", b.tmux.Run("list-clients"))
		}
	}
	pane := b.panes["busy"] // in "two", not its active pane
	if got := b.tmux.Run("display", "-p", "-t", pane, "#{pane_active}"); got != "0" {
		t.Fatalf("the pane is active already: %q", got)
	}
	if _, err := jigIn(t, b.jig, b.state, "", nil, "board", "--jump", b.ids["busy"]); err != nil {
		t.Fatalf("jump with no client: %v", err)
	}
	if got := b.tmux.Run("display", "-p", "-t", pane, "#{window_active}#{pane_active}"); got != "11" {
		t.Errorf("the pane is not the active one of its window and session: %q", got)
	}
}

// TestBoardHonoursNoColor: under NO_COLOR the board in a real tmux pane
// draws no colour and no reverse video; the selection is still marked.
func TestBoardHonoursNoColor(t *testing.T) {
	b := newTmuxBoard(t)
	board := "%0"
	b.tmux.Run("respawn-pane", "-k", "-t", board, "env", "JIG_STATE_DIR="+b.state, "NO_COLOR=1", b.jig, "board")
	b.waitScreen(t, board, "gamma")
	screen := b.tmux.Run("capture-pane", "-p", "-e", "-t", board)
	if strings.Contains(screen, "\x1b[") || !strings.Contains(screen, "› ◐") {
		t.Errorf("NO_COLOR: %q", screen)
	}
}
