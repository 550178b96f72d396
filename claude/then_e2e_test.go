package claude_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"jig/internal/pitest"
	"jig/status"
)

const ccstatuslineVersion = "2.2.30"

// The real ccstatusline as a user has it in Claude's settings: `jig install
// claude` wraps it (jig claude statusline --then '<ccstatusline>'), and the
// command Claude runs from the settings prints exactly ccstatusline's own
// line, with its exit code, while jig records the session (model, rate
// limits). Uninstall gives the user's statusLine back.
func TestThenWrapsTheRealCCStatusline(t *testing.T) {
	pitest.Node(t)
	cc := filepath.Join(pitest.Cache(), "ccstatusline-"+ccstatuslineVersion, "node_modules", ".bin", "ccstatusline")
	if _, err := os.Stat(cc); err != nil {
		pitest.Missing(t, cc+" is missing; run .ci/provision (ccstatusline "+ccstatuslineVersion+" is needed)")
	}
	jig := buildJig(t)
	root := t.TempDir()
	home, state := filepath.Join(root, "home"), filepath.Join(root, "state")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + pitest.NodeBinDir() + ":/usr/bin:/bin", "HOME=" + home, "JIG_BIN=" + jig, "JIG_STATE_DIR=" + state,
		"CLAUDE_PID=" + strconv.Itoa(os.Getpid()), "TMUX=/tmp/t,1,0", "TMUX_PANE=%7", "TERM=xterm-256color"}
	settings := filepath.Join(home, ".claude", "settings.json")
	mine := []byte(`{"statusLine": {"type": "command", "command": "` + cc + `", "padding": 0}}` + "\n")
	if err := os.WriteFile(settings, mine, 0o600); err != nil {
		t.Fatal(err)
	}
	input := []byte(`{"session_id":"cc-1","cwd":"/w","workspace":{"current_dir":"/w"},"model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},` +
		`"cost":{"total_cost_usd":0.5},"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1893466800},"seven_day":{"used_percentage":9,"resets_at":1893801600}}}`)
	run := func(command string) ([]byte, int) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Env, cmd.Stdin = env, bytes.NewReader(input)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", command, err)
		}
		return out, code
	}
	run(cc) // its first run writes its default settings
	want, wantCode := run(cc)
	if len(want) == 0 {
		t.Fatal("ccstatusline printed nothing")
	}

	install := exec.Command(jig, "install", "claude")
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("jig install claude: %v\n%s", err, out)
	}
	var got struct {
		StatusLine struct {
			Command string `json:"command"`
		} `json:"statusLine"`
	}
	data, _ := os.ReadFile(settings)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	// ccstatusline's line had no refreshInterval: it gets jig's (--refreshed);
	// jig-fast hands --then to jig
	if wrapped := filepath.Join(filepath.Dir(jig), "jig-fast") + " claude statusline --refreshed --then '" + cc + "'"; got.StatusLine.Command != wrapped {
		t.Fatalf("statusLine command %q, want %q", got.StatusLine.Command, wrapped)
	}
	line, code := run(got.StatusLine.Command)
	if !bytes.Equal(line, want) || code != wantCode {
		t.Errorf("through jig: %q (exit %d), want ccstatusline's own %q (exit %d)", line, code, want, wantCode)
	}
	s, err := (&status.Dir{Root: state}).Read("cc-1")
	if err != nil {
		t.Fatal(err)
	}
	if s.Model == nil || s.Model.Name != "Opus 5.5" || s.RateLimits == nil || s.RateLimits.FiveHour == nil ||
		s.RateLimits.FiveHour.UsedPercent != 42 || s.RateLimits.Weekly.UsedPercent != 9 || *s.Terminal != "%7" {
		t.Errorf("jig recorded %+v, rate limits %+v", s.Model, s.RateLimits)
	}

	uninstall := exec.Command(jig, "install", "claude", "--uninstall")
	uninstall.Env = env
	if out, err := uninstall.CombinedOutput(); err != nil {
		t.Fatalf("jig install claude --uninstall: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(settings); !bytes.Equal(data, mine) {
		t.Errorf("after uninstall:\n%s\nwant the user's own:\n%s", data, mine)
	}
}
